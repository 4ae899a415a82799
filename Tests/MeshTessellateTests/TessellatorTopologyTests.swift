import Testing

@testable import MeshTessellate
@testable import SurfaceKit

// A Tessellator holds tables built for one mesh's faces; a mesh with other faces must be refused,
// not tessellated with the wrong tables.

@Suite struct TessellatorTopologyTests {
    /// 3 × 4 and 4 × 3 identity grids have the same vertex and face counts (20 and 12) but not
    /// the same faces: the tessellator for one refuses the other and names the first face that
    /// differs, while moved vertices of its own mesh are tessellated as a fresh tessellator does.
    @Test func otherFacesWithTheSameCountsAreRefused() throws {
        let wide = try MeshTransform.identity(rows: 3, columns: 4)
        let tall = try MeshTransform.identity(rows: 4, columns: 3)
        #expect(wide.vertices.count == tall.vertices.count && wide.faces.count == tall.faces.count)
        let options = TessellationOptions(steps: .fixed(2))
        let tessellator = try Tessellator(mesh: wide, options: options)
        let geometry = MeshDocument(mesh: wide).geometry
        let error = #expect(throws: MeshError.self) { try tessellator.tessellate(tall, geometry: geometry, space: .unit) }
        #expect(error?.kind == .incompatible)
        // Face 0 is (0, 1, 6, 5) on the wide grid and (0, 1, 5, 4) on the tall one.
        #expect(error?.path == "faces[0].indices")

        var moved = wide
        try moved.mapVertices { v, i in MeshVertex(from: v.from, to: v.to + Point3D(0, 0, 0.01 * Double(i % 3))) }
        let reused = try tessellator.tessellate(moved, geometry: geometry, space: .unit)
        let fresh = try Tessellator(mesh: moved, options: options).tessellate(moved, geometry: geometry, space: .unit)
        #expect(reused.positions == fresh.positions && reused.triangles == fresh.triangles)
    }

    /// A face started at another corner, a vertex more, a face fewer: each refused.
    @Test func anyChangeOfFacesOrVertexCountIsRefused() throws {
        let mesh = try MeshTransform.identity(rows: 2, columns: 2)
        let tessellator = try Tessellator(mesh: mesh, options: TessellationOptions(steps: .fixed(1)))
        let geometry = MeshDocument(mesh: mesh).geometry
        // Face 3 started at another corner: the same quad, but the tables number it differently.
        var rotated = mesh
        let f = mesh.faces[3].indices
        try rotated.replaceFace(at: 3, with: MeshFace(f[1], f[2], f[3], f[0]))
        var extraVertex = mesh
        try extraVertex.addVertex(MeshVertex(from: LayerPoint(0.5, 0.5), to: Point3D(0.5, 0.5, 0)))
        let faceLess = try MeshTransform(vertices: mesh.vertices, faces: Array(mesh.faces.dropLast()))
        for (other, path) in [(rotated, "faces[3].indices"), (extraVertex, "vertices"), (faceLess, "faces")] {
            let error = #expect(throws: MeshError.self) { try tessellator.tessellate(other, geometry: geometry, space: .unit) }
            #expect(error?.kind == .incompatible && error?.path == path)
        }
    }
}
