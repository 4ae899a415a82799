import MeshTessellate
import SurfaceKit

/// The inputs of the workloads (Docs/performance.md, "The workloads"): the reference ripple and
/// its relatives, and the rays of W2.
package enum BenchmarkInputs {
    /// The reference ripple: 100 × 100 faces on a 1 × 1 layer, z = 0.05·sin(2π·4·r), tilted −45°
    /// about x with m34 = −1/2 (the tilt matters only for W3), weights 1, depth normalization none.
    package static func ripple() -> MeshDocument {
        ExampleMesh.ripple.document
    }

    /// A `faces × faces` ripple on a 1000 × 1000 pt layer with depth scaled by the width (one unit
    /// of z is 1000 pt, so the ripple stands 50 pt high): the automatic-steps benchmark's input.
    package static func rippleLayer(faces: Int) throws -> MeshDocument {
        var mesh = try rippleGrid(faces: faces)
        mesh.depthNormalization = .width
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(1000, 1000)))
    }

    /// A ripple grid of `faces × faces` faces (W4 uses 100 and 1000), its waves moved outwards by
    /// `phase` (the W1 frame animates it).
    package static func rippleGrid(faces: Int, phase: Double = 0) throws -> MeshTransform {
        let grid = try MeshTransform.identity(rows: faces, columns: faces, subdivisionSteps: .fixed(0))
        let vertices = grid.vertices.map { vertex in
            let p = vertex.from
            let r = ((p.x - 0.5) * (p.x - 0.5) + (p.y - 0.5) * (p.y - 0.5)).squareRoot()
            // Minus `phase` (the waves moved outwards); at phase 0 the same bits as without it.
            return MeshVertex(from: p, to: Point3D(p.x, p.y, 0.05 * Double.sin(r * 2 * Double.pi * 4 - phase)))
        }
        return try MeshTransform(vertices: vertices, faces: grid.faces, subdivisionSteps: .fixed(0))
    }

    /// `count` rays along −z from z = 1 through uniform random points of the unit square, from a
    /// fixed seed (SplitMix64), so every run shoots the same rays.
    package static func downwardRays(count: Int, seed: UInt64 = 0x5EED) -> [Ray] {
        var state = seed
        // SplitMix64 (Steele, Lea and Flood), the top 53 bits as a Double in [0, 1).
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

    /// The steps-n tessellation of the ripple in points space, with its tessellator.
    package static func rippleTessellation(steps: Int) throws -> (Tessellator, TriangleMesh, MeshDocument) {
        let document = ripple()
        let tessellator = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .fixed(steps)))
        let mesh = try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points)
        return (tessellator, mesh, document)
    }
}
