import MeshTessellate
import SurfaceKit

/// The inputs of `meshgeo bench`'s workloads (Docs/performance.md, "The workloads"), made here
/// through the libraries' public API: the benchmark code of `meshgeo bench` is internal to the
/// root package.
enum Inputs {
    /// The reference ripple: 100 × 100 faces on a 1 × 1 layer, z = 0.05·sin(2π·4·r), tilted −45°
    /// about x with m34 = −1/2.
    static func ripple() -> MeshDocument { ExampleMesh.ripple.document }

    /// A ripple grid of `faces × faces` faces.
    static func rippleGrid(faces: Int) throws -> MeshTransform {
        let grid = try MeshTransform.identity(rows: faces, columns: faces, subdivisionSteps: .fixed(0))
        let vertices = grid.vertices.map { vertex in
            let p = vertex.from
            let r = ((p.x - 0.5) * (p.x - 0.5) + (p.y - 0.5) * (p.y - 0.5)).squareRoot()
            return MeshVertex(from: p, to: Point3D(p.x, p.y, 0.05 * Double.sin(r * 2 * Double.pi * 4)))
        }
        return try MeshTransform(vertices: vertices, faces: grid.faces, subdivisionSteps: .fixed(0))
    }

    /// `count` rays along −z from z = 1 through uniform random points of the unit square, from a
    /// fixed seed (SplitMix64), the rays of W2.
    static func downwardRays(count: Int, seed: UInt64 = 0x5EED) -> [Ray] {
        var state = seed
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Double(z >> 11) * 0x1p-53
        }
        return (0..<count).map { _ in
            let x = next(), y = next()
            return Ray(origin: Point3D(x, y, 1), direction: Point3D(0, 0, -1))
        }
    }

    /// The steps-n tessellation of the ripple in points space.
    static func rippleTessellation(steps: Int) throws -> TriangleMesh {
        let document = ripple()
        let tessellator = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .fixed(steps)))
        return try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points)
    }
}
