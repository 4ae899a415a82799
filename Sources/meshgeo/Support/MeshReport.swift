import MeshTessellate
import SurfaceKit

/// The text of `meshgeo info`.
struct MeshReport {
    var text: String

    init(document: MeshDocument, options: TessellationOptions = TessellationOptions()) throws {
        let s = try MeshSummary(document: document, options: options)
        var lines: [String] = []
        lines.append("vertices: \(s.vertexCount)")
        lines.append("faces: \(s.faceCount)")
        lines.append("edges: \(s.edgeCount) (\(s.boundaryEdgeCount) on a boundary)")
        let interior = s.interiorValences.sorted { $0.key < $1.key }.map { "valence \($0.key): \($0.value)" }
        let boundary = s.boundaryFaceCounts.sorted { $0.key < $1.key }.map { "\($0.key) faces: \($0.value)" }
        lines.append("interior vertices: " + (interior.isEmpty ? "none" : interior.joined(separator: ", ")))
        lines.append("boundary vertices: " + (boundary.isEmpty ? "none" : boundary.joined(separator: ", ")))
        lines.append("corner or non-manifold vertices: \(s.cornerCount)")
        if let b = s.toBounds, let f = s.fromBounds {
            lines.append("to bounds: [\(b.min.x), \(b.min.y), \(b.min.z)] … [\(b.max.x), \(b.max.y), \(b.max.z)]")
            lines.append("from bounds: [\(f.min.x), \(f.min.y)] … [\(f.max.x), \(f.max.y)]")
        }
        lines.append("depthNormalization: \(document.mesh.depthNormalization.rawValue)")
        let layer = document.layer
        lines.append(
            "layer: size \(layer.size.x) × \(layer.size.y) points, anchor (\(layer.anchor.x), \(layer.anchor.y))"
                + (layer.transform == .identity ? ", identity transform" : ", transform \(layer.transform.elements)"))
        lines += MeshReport.lightingLines(layer)
        if let a = s.automatic {
            lines.append("subdivisionSteps: -1 (automatic, tolerance \(a.tolerance) points)")
            let rates =
                a.smallestRate == a.largestRate
                ? (a.largestRate == 1 ? "1 segment" : "\(a.largestRate) segments") : "\(a.smallestRate) to \(a.largestRate) segments"
            lines.append(
                "automatic steps: \(rates) along a face side (uniform steps \(a.equivalentUniformSteps) would match the densest face)"
                    + (a.irregularFaces > 0 ? ", \(a.irregularFaces) faces at irregular vertices cut into pieces" : ""))
            if a.isolatedVertices > 0 {
                lines.append(
                    "irregular vertices: \(a.isolatedVertices) isolated in up to \(a.deepestIsolation) levels, corner squares within a proven \(a.largestCornerBound) points"
                )
            }
            lines.append(
                "tessellation: \(a.vertexCount) points, \(a.triangleCount) triangles, largest measured deviation \(a.worstDeviation) points"
            )
        } else {
            lines.append("subdivisionSteps: \(s.resolvedSteps)")
            func count(_ n: Int) -> String { MeshSummary.isSaturated(n) ? "more than \(Int.max)" : "\(n)" }
            lines.append("tessellation at \(s.resolvedSteps) steps: \(count(s.pointCount)) points, \(count(s.triangleCount)) triangles")
        }
        text = lines.joined(separator: "\n") + "\n"
    }
}
