import MeshTessellate
import SurfaceKit

/// libFuzzer's entry point: one input, a mesh.json candidate.
///
/// Whatever parses is validated, tessellated, sorted and hit-tested the way meshgeo does it. Errors
/// are the expected answer to bad input; a trap, a sanitizer report, a hang or a broken invariant
/// (checked by ``FuzzInvariants``) is a finding. The triangle budget is kept small so that every
/// input stays fast: the budget check itself is part of what is fuzzed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    FuzzRun.run(bytes)
    return 0
}

enum FuzzRun {
    /// Few enough triangles that the exact sort and the hit tester finish in milliseconds.
    static let maximumTriangles = 4_000
    /// The most faces a mesh may have for the fuzzer to use its automatic (adaptive) steps.
    static let maximumAutomaticFaces = 24

    static func run(_ bytes: [UInt8]) {
        guard let document = try? MeshDocument(json: bytes) else { return }
        // A parsed document has passed the same checks as validate(); validating again must agree.
        do {
            try document.validate()
        } catch {
            FuzzInvariants.fail("a document that parsed does not validate: \(error)")
        }
        // The input's last byte picks the options, so the corpus explores them all.
        let selector = Int(bytes.last ?? 0)
        let diagonals = DiagonalPolicy.allCases
        let diagonal = diagonals[selector % diagonals.count]
        // Automatic steps only on small meshes: on large irregular ones the adaptive estimate
        // takes seconds (a known cost, reported, not a trap), which would starve everything else.
        var steps: SubdivisionSteps? = nil
        if document.mesh.subdivisionSteps == .automatic && document.mesh.faces.count > maximumAutomaticFaces {
            steps = .fixed(selector % 3)
        }
        let options = TessellationOptions(steps: steps, diagonal: diagonal, maximumTriangles: maximumTriangles)
        let space: CoordinateSpace = [.unit, .points, .screen][(selector / 8) % 3]

        if let mesh = try? Tessellator.tessellate(document, options: options, space: space) {
            FuzzInvariants.check(mesh, faceCount: document.mesh.faces.count)
            _ = mesh.objBytes()
        }
        if let points = try? Tessellator.tessellate(document, options: options, space: .points) {
            for mode in [PainterSort.depth, .bsp] {
                if let sorted = try? PainterSorter.sorted(
                    mesh: points, geometry: document.geometry, mode: mode, space: .screen,
                    maximumTriangles: maximumTriangles * 4)
                {
                    FuzzInvariants.check(sorted.mesh, faceCount: document.mesh.faces.count)
                }
            }
        }
        let precision: HitPrecision = selector & 64 == 0 ? .triangles : .exact
        if let tester = try? HitTester(document: document, options: options, precision: precision) {
            let size = document.layer.size
            var queries: [SIMD2<Double>] = []
            for i in 0..<5 {
                for j in 0..<5 {
                    queries.append(SIMD2(Double(j) / 4, Double(i) / 4) * size)
                }
            }
            queries.append(SIMD2(-1e300, 1e300))
            for hit in tester.hitTest(queries) {
                if let hit, hit.face < 0 || hit.face >= document.mesh.faces.count {
                    FuzzInvariants.fail("a hit names face \(hit.face) of \(document.mesh.faces.count)")
                }
            }
        }
    }
}
