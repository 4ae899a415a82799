import Foundation
import MeshTessellate
import SurfaceKit
import Testing

/// `Tessellator.tessellate(_:geometry:space:keeping:)`: after any sequence of edits the kept
/// tessellation is the full one bit for bit, what it reports as changed covers every difference,
/// and it does take the partial path where the patches allow it.
@Suite struct KeptTessellationTests {
    /// A seeded generator (SplitMix64), so a failure can be replayed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Every value of two meshes equal as bits (so 0 and −0 differ).
    static func bits(_ mesh: TriangleMesh) -> [UInt64] {
        var out: [UInt64] = [UInt64(mesh.vertexCount), UInt64(mesh.triangleCount)]
        for p in mesh.positions { out += [p.x.bitPattern, p.y.bitPattern, p.z.bitPattern] }
        for n in mesh.normals { out += [n.x.bitPattern, n.y.bitPattern, n.z.bitPattern] }
        for f in mesh.from { out += [f.x.bitPattern, f.y.bitPattern] }
        for t in mesh.triangles {
            out += [UInt64(UInt32(bitPattern: t.x)), UInt64(UInt32(bitPattern: t.y)), UInt64(UInt32(bitPattern: t.z))]
        }
        for s in mesh.sourceFaces { out.append(UInt64(UInt32(bitPattern: s))) }
        return out
    }

    static func sameVertex(_ a: TriangleMesh, _ b: TriangleMesh, _ i: Int) -> Bool {
        let p = a.positions[i], q = b.positions[i], n = a.normals[i], m = b.normals[i], f = a.from[i], g = b.from[i]
        return (0..<3).allSatisfy { p[$0].bitPattern == q[$0].bitPattern && n[$0].bitPattern == m[$0].bitPattern }
            && (0..<2).allSatisfy { f[$0].bitPattern == g[$0].bitPattern }
    }

    /// A rows × columns grid with bent `to`, random face weights, on a 200 × 150 layer.
    static func grid(rows: Int, columns: Int, weighted: Bool, using random: inout Seeded) throws -> MeshDocument {
        var mesh = try MeshTransform.identity(rows: rows, columns: columns)
        try mesh.mapVertices { v, _ in
            MeshVertex(from: v.from, to: v.to + SIMD3(0, 0, 0.2 * sin(3 * v.from.x) * v.from.y))
        }
        if weighted {
            for f in mesh.faces.indices {
                var face = mesh.faces[f]
                face.weights = SIMD4((0..<4).map { _ in Double.random(in: 0.5...2, using: &random) })
                try mesh.replaceFace(at: f, with: face)
            }
        }
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(200, 150)))
    }

    /// One random edit: 1 to 3 vertices moved (`to`, sometimes `from`, sometimes to −0), a face
    /// weight changed, or nothing at all.
    static func edit(_ mesh: inout MeshTransform, using random: inout Seeded) throws {
        switch Int.random(in: 0..<10, using: &random) {
        case 0:
            return
        case 1:
            let f = Int.random(in: 0..<mesh.faces.count, using: &random)
            var face = mesh.faces[f]
            face.weights[Int.random(in: 0..<4, using: &random)] = Double.random(in: 0.5...2, using: &random)
            try mesh.replaceFace(at: f, with: face)
        default:
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let i = Int.random(in: 0..<mesh.vertices.count, using: &random)
                var v = mesh.vertices[i]
                v.to += SIMD3((0..<3).map { _ in Double.random(in: -0.05...0.05, using: &random) })
                if Bool.random(using: &random) { v.from.x += Double.random(in: -0.02...0.02, using: &random) }
                if Int.random(in: 0..<6, using: &random) == 0 { v.to.z = -0.0 }
                try mesh.replaceVertex(at: i, with: v)
            }
        }
    }

    /// Runs `count` random edits on `document`, checking each against a full tessellation;
    /// returns how many took the partial path.
    static func check(
        _ document: MeshDocument, steps: Int, diagonal: DiagonalPolicy, space: CoordinateSpace, edits count: Int, seed: UInt64
    ) throws -> Int {
        var random = Seeded(state: seed)
        var options = TessellationOptions(steps: .fixed(steps))
        options.diagonal = diagonal
        let tessellator = try Tessellator(mesh: document.mesh, options: options)
        var kept: KeptTessellation?
        var mesh = document.mesh
        var previous: TriangleMesh?
        var partial = 0
        for _ in 0..<count {
            let edit = try tessellator.tessellate(mesh, geometry: document.geometry, space: space, keeping: &kept)
            let full = try Tessellator(mesh: mesh, options: options).tessellate(mesh, geometry: document.geometry, space: space)
            let result = kept?.mesh ?? full
            #expect(bits(result) == bits(full), "steps \(steps), \(diagonal), \(space)")
            if let edit, let previous {
                partial += 1
                // Everything not reported is unchanged, in place.
                let vertices = Set(edit.vertices), triangles = Set(edit.triangles)
                for i in 0..<full.vertexCount where !vertices.contains(i) {
                    #expect(sameVertex(full, previous, i), "vertex \(i) changed unreported")
                }
                for t in 0..<full.triangleCount where !triangles.contains(t) {
                    #expect(full.triangles[t] == previous.triangles[t], "triangle \(t) changed unreported")
                    let corners = [full.triangles[t].x, full.triangles[t].y, full.triangles[t].z]
                    #expect(corners.allSatisfy { !vertices.contains(Int($0)) }, "triangle \(t) has a moved corner")
                }
            }
            previous = full
            try KeptTessellationTests.edit(&mesh, using: &random)
        }
        return partial
    }

    @Test(arguments: [
        (1, DiagonalPolicy.shortest, CoordinateSpace.points), (2, .shortest, .unit), (3, .shortest, .points),
        (2, .first, .points), (2, .second, .unit),
    ])
    func regularGridEditsEqualTheFullTessellation(steps: Int, diagonal: DiagonalPolicy, space: CoordinateSpace) throws {
        var random = Seeded(state: 26)
        // Weighted, with boundary and corner faces: every face a patch, so edits are partial.
        let document = try KeptTessellationTests.grid(rows: 5, columns: 6, weighted: true, using: &random)
        let partial = try KeptTessellationTests.check(document, steps: steps, diagonal: diagonal, space: space, edits: 40, seed: 7)
        #expect(partial >= 35, "the partial path was taken \(partial) times of 39")
    }

    @Test func meshesOffThePatchPathFallBackToTheFullTessellation() throws {
        var random = Seeded(state: 3)
        // A hole (an interior face removed: its corners have three faces) and an extraordinary
        // vertex (a face split off a corner of the grid) leave faces off the patch path.
        var holed = try KeptTessellationTests.grid(rows: 4, columns: 4, weighted: false, using: &random)
        try holed.mesh.removeFace(at: 5)
        let partialHoled = try KeptTessellationTests.check(holed, steps: 2, diagonal: .shortest, space: .points, edits: 12, seed: 11)
        #expect(partialHoled == 0)
        // Every bundled example, whichever path it takes; automatic steps are not kept.
        for example in ExampleMesh.allCases where example.document.mesh.faces.count <= 400 {
            _ = try KeptTessellationTests.check(example.document, steps: 2, diagonal: .shortest, space: .unit, edits: 6, seed: 5)
        }
        var kept: KeptTessellation?
        let document = ExampleMesh.skew.document
        let automatic = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .automatic))
        #expect(try automatic.tessellate(document.mesh, geometry: document.geometry, space: .points, keeping: &kept) == nil)
        #expect(kept == nil)
    }

    @Test func anotherGeometryOrSpaceStartsAfresh() throws {
        var random = Seeded(state: 9)
        let document = try KeptTessellationTests.grid(rows: 3, columns: 3, weighted: false, using: &random)
        let tessellator = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .fixed(2)))
        var kept: KeptTessellation?
        #expect(try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points, keeping: &kept) == nil)
        #expect(try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .points, keeping: &kept) != nil)
        #expect(try tessellator.tessellate(document.mesh, geometry: document.geometry, space: .unit, keeping: &kept) == nil)
        // Turned: the same evaluation, so an update, equal to the full tessellation.
        var turned = document.geometry
        turned.transform = Transform3D.rotation(angle: 0.5, axis: SIMD3(0, 1, 0))
        #expect(try tessellator.tessellate(document.mesh, geometry: turned, space: .unit, keeping: &kept) != nil)
        let fullTurned = try tessellator.tessellate(document.mesh, geometry: turned, space: .unit)
        #expect(try KeptTessellationTests.bits(#require(kept).mesh) == KeptTessellationTests.bits(fullTurned))
        var wider = document.geometry
        wider.size.x *= 2
        #expect(try tessellator.tessellate(document.mesh, geometry: wider, space: .unit, keeping: &kept) == nil)
        let full = try tessellator.tessellate(document.mesh, geometry: wider, space: .unit)
        #expect(try KeptTessellationTests.bits(#require(kept).mesh) == KeptTessellationTests.bits(full))
    }

    @Test(arguments: [true, false])
    func keptDepthOrderIsTheFullDepthOrder(tilted: Bool) throws {
        var random = Seeded(state: tilted ? 1 : 2)
        var document = try KeptTessellationTests.grid(rows: 5, columns: 5, weighted: true, using: &random)
        // Untilted and flat, every key ties (all depths 0) until an edit lifts a vertex: the
        // ties must stay in triangle order.
        if tilted {
            document.layer.transform = Transform3D.rotation(angle: 0.7, axis: SIMD3(1, 0.3, 0))
                .concatenating(Transform3D.perspective(eyeDistance: 600))
        } else {
            try document.mesh.mapVertices { v, _ in MeshVertex(from: v.from, to: SIMD3(v.to.x, v.to.y, 0)) }
        }
        let tessellator = try Tessellator(mesh: document.mesh, options: TessellationOptions(steps: .fixed(2)))
        var kept: KeptTessellation?
        var order: KeptDepthOrder?
        var mesh = document.mesh
        var updates = 0
        for _ in 0..<30 {
            let edit = try tessellator.tessellate(mesh, geometry: document.geometry, space: .points, keeping: &kept)
            let points = try #require(kept).mesh
            if let edit, var kept = order, kept.update(mesh: points, edit: edit, geometry: document.geometry) {
                order = kept
                updates += 1
            } else {
                order = try KeptDepthOrder(mesh: points, geometry: document.geometry)
            }
            let expected = try #require(try PainterSorter.depthOrder(mesh: points, geometry: document.geometry))
            #expect(try #require(order).order == expected)
            try KeptTessellationTests.edit(&mesh, using: &random)
        }
        #expect(updates >= 25)
        // Another layer transform: the kept order refuses to follow.
        var other = document.geometry
        other.transform = Transform3D.rotation(angle: 0.2, axis: SIMD3(0, 1, 0))
        var last = try #require(order)
        let same = try #require(try tessellator.tessellate(mesh, geometry: document.geometry, space: .points, keeping: &kept))
        let points = try #require(kept).mesh
        let followed = last.update(mesh: points, edit: same, geometry: other)
        #expect(!followed)
    }
}
