import MeshRender
import MeshTessellate
import SurfaceKit

/// libFuzzer's entry point: one input, a mesh.json candidate.
///
/// Whatever parses goes through what every meshgeo command computes: validate and the numeric
/// range, info (the summary), tessellate with its OBJ, PLY and glb writers, both painter's sorts,
/// hit-testing, fit, interpolate, and render (SVG and a small PNG). Errors are the expected answer
/// to bad input, but they must be clean (``FuzzInvariants/checkClean(_:_:)``); a trap, a sanitizer
/// report, a hang or a broken invariant is a finding. For an input inside the documented numeric
/// range every number computed must be finite. The triangle budget is kept small so that every
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
    /// The most faces a mesh may have to be fitted (a dense solve; bigger ones are slow, not wrong).
    static let maximumFittedFaces = 64
    /// The longest side of a fuzzed picture, in pixels.
    static let pictureSide = 24.0

    static func run(_ bytes: [UInt8]) {
        let document: MeshDocument
        do {
            document = try MeshDocument(json: bytes)
        } catch {
            FuzzInvariants.checkClean(error, "reading")
            return
        }
        // A parsed document has passed the same checks as validate(); validating again must agree.
        do {
            try document.validate()
        } catch {
            FuzzInvariants.fail("a document that parsed does not validate: \(error)")
        }
        // Commands refuse what is outside the numeric range; the library must still answer it
        // cleanly, and inside it every number must be finite.
        let inRange: Bool
        do {
            try document.checkNumericRange()
            inRange = true
        } catch {
            FuzzInvariants.checkClean(error, "the numeric range")
            inRange = false
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
        let faceCount = document.mesh.faces.count

        attempt("info") {
            let summary = try MeshSummary(document: document, options: options)
            if let automatic = summary.automatic, inRange {
                FuzzInvariants.checkFinite([automatic.tolerance, automatic.worstDeviation], "the automatic report")
            }
        }
        attempt("tessellate") {
            let mesh = try Tessellator.tessellate(document, options: options, space: space)
            FuzzInvariants.check(mesh, faceCount: faceCount, finite: inRange)
            let obj = mesh.objBytes()
            if inRange { FuzzInvariants.checkText(obj, "the OBJ") }
            _ = mesh.plyBytes()
            _ = try mesh.glbBytes()
        }
        attempt("sort") {
            let points = try Tessellator.tessellate(document, options: options, space: .points)
            for mode in [PainterSort.depth, .bsp] {
                attempt("sort \(mode)") {
                    let sorted = try PainterSorter.sorted(
                        mesh: points, geometry: document.geometry, mode: mode, space: .screen,
                        maximumTriangles: maximumTriangles * 4)
                    FuzzInvariants.check(sorted.mesh, faceCount: faceCount, finite: inRange)
                }
            }
        }
        attempt("hit") {
            let precision: HitPrecision = selector & 64 == 0 ? .triangles : .exact
            let tester = try HitTester(document: document, options: options, precision: precision)
            let size = document.layer.size
            var queries: [SIMD2<Double>] = []
            for i in 0..<5 {
                for j in 0..<5 {
                    queries.append(SIMD2(Double(j) / 4, Double(i) / 4) * size)
                }
            }
            queries.append(SIMD2(-1e300, 1e300))
            for hit in tester.hitTest(queries) {
                guard let hit else { continue }
                if hit.face < 0 || hit.face >= faceCount {
                    FuzzInvariants.fail("a hit names face \(hit.face) of \(faceCount)")
                }
                if inRange {
                    FuzzInvariants.checkFinite([hit.from.x, hit.from.y, hit.to.x, hit.to.y, hit.to.z, hit.depth], "a hit")
                }
            }
        }
        if faceCount <= maximumFittedFaces {
            attempt("fit") {
                var fitted = document
                fitted.mesh = try document.mesh.fitted()
                // What `fit` writes: valid, or refused; finite whenever it is in range.
                if (try? fitted.checkNumericRange()) != nil {
                    FuzzInvariants.checkText(fitted.jsonBytes(), "the fitted mesh.json")
                    _ = try MeshDocument(json: fitted.jsonBytes())
                }
            }
        }
        attempt("interpolate") {
            // The mesh against itself moved: a blend of two valid meshes is valid or a clean error.
            let moved = try document.mesh.mappingVertices { vertex, _ in
                MeshVertex(from: vertex.from, to: vertex.to + Point3D(0, 0, 1))
            }
            let fraction = [0.5, -3, 1e300, 1e-300][selector % 4]
            let blend = try document.mesh.interpolated(to: moved, fraction: fraction)
            if inRange && (try? MeshDocument(mesh: blend, layer: document.layer).checkNumericRange()) != nil {
                FuzzInvariants.checkText(MeshDocument(mesh: blend, layer: document.layer).jsonBytes(), "the blend's mesh.json")
            }
        }
        attempt("render") {
            let largest = max(document.layer.size.x, document.layer.size.y)
            let scale = largest > 0 && largest.isFinite ? pictureSide / largest : 1
            let render = RenderOptions(scale: scale, opacity: selector & 1 == 0 ? 1 : 0.5, tessellation: options)
            do {
                _ = try MeshRenderer.svgData(of: document, options: render)
                _ = try MeshRenderer.image(of: document, options: render)
            } catch let error as MeshError where inRange && error.message.contains("not a finite number; nothing was written") {
                FuzzInvariants.fail("an input inside the numeric range made a non-finite picture: \(error)")
            }
        }
    }

    /// Runs one command's computation; an error must be a clean one.
    static func attempt(_ what: String, _ body: () throws -> Void) {
        do {
            try body()
        } catch {
            FuzzInvariants.checkClean(error, what)
        }
    }
}
