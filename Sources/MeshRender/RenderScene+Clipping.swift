/// A vertex while clipping in 2D: every quantity that is linear in screen space.
private struct ClipVertex {
    var x: Double, y: Double, inverseW: Double, uw: Double, vw: Double, shadeW: Double
    /// Lit mode: the lit position and the normal, each over w (zero otherwise).
    var positionW: SIMD3<Double> = .zero, normalW: SIMD3<Double> = .zero

    func lerp(to other: ClipVertex, _ t: Double) -> ClipVertex {
        ClipVertex(
            x: x + t * (other.x - x), y: y + t * (other.y - y),
            inverseW: inverseW + t * (other.inverseW - inverseW), uw: uw + t * (other.uw - uw),
            vw: vw + t * (other.vw - vw), shadeW: shadeW + t * (other.shadeW - shadeW),
            positionW: positionW + t * (other.positionW - positionW), normalW: normalW + t * (other.normalW - normalW))
    }
}

extension RenderScene {
    /// Cuts the rare triangles that reach far past the picture (strong perspective near the eye)
    /// to the guard band, fanning the pieces in place of the triangle, and drops triangles with a
    /// non-finite vertex. Attributes are cut as `a/w` and `1/w`, which are linear on screen.
    mutating func clipToGuardBand() {
        let lo = -RenderScene.guardBand
        let hiX = Double(width) + RenderScene.guardBand, hiY = Double(height) + RenderScene.guardBand
        func inside(_ i: Int32) -> Bool {
            let px = x[Int(i)], py = y[Int(i)]
            return px >= lo && px <= hiX && py >= lo && py <= hiY
        }
        guard let first = triangles.firstIndex(where: { !(inside($0.x) && inside($0.y) && inside($0.z)) }) else { return }

        let flat = !flatShade.isEmpty
        let lit = !litPosition.isEmpty, flatLit = !flatColour.isEmpty
        var kept = Array(triangles[..<first])
        var keptShade = flat ? Array(flatShade[..<first]) : []
        var keptColour = flatLit ? Array(flatColour[..<first]) : []
        for t in first..<triangles.count {
            let tri = triangles[t]
            if inside(tri.x) && inside(tri.y) && inside(tri.z) {
                kept.append(tri)
                if flat { keptShade.append(flatShade[t]) }
                if flatLit { keptColour.append(flatColour[t]) }
                continue
            }
            var polygon = [tri.x, tri.y, tri.z].map(clipVertex)
            guard polygon.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.inverseW.isFinite }) else { continue }
            polygon = clip(polygon, coordinate: \.x, bound: lo, keepAbove: true)
            polygon = clip(polygon, coordinate: \.x, bound: hiX, keepAbove: false)
            polygon = clip(polygon, coordinate: \.y, bound: lo, keepAbove: true)
            polygon = clip(polygon, coordinate: \.y, bound: hiY, keepAbove: false)
            guard polygon.count >= 3 else { continue }
            let base = Int32(x.count)
            for p in polygon {
                let w = p.inverseW > 0 ? p.inverseW : .leastNormalMagnitude
                x.append(p.x)
                y.append(p.y)
                inverseW.append(p.inverseW)
                u.append(p.uw / w)
                v.append(p.vw / w)
                shade.append(p.shadeW / w)
                if lit {
                    litPosition.append(p.positionW / w)
                    litNormal.append(p.normalW / w)
                }
            }
            for k in 1..<(polygon.count - 1) {
                kept.append(SIMD3(base, base + Int32(k), base + Int32(k + 1)))
                if flat { keptShade.append(flatShade[t]) }
                if flatLit { keptColour.append(flatColour[t]) }
            }
        }
        triangles = kept
        flatShade = keptShade
        flatColour = keptColour
    }

    private func clipVertex(_ i: Int32) -> ClipVertex {
        let k = Int(i), iw = inverseW[k]
        var vertex = ClipVertex(x: x[k], y: y[k], inverseW: iw, uw: u[k] * iw, vw: v[k] * iw, shadeW: shade[k] * iw)
        if !litPosition.isEmpty {
            vertex.positionW = litPosition[k] * iw
            vertex.normalW = litNormal[k] * iw
        }
        return vertex
    }

    /// One Sutherland–Hodgman pass. The crossing of an edge is computed from its endpoints in a
    /// fixed order, so two triangles sharing the edge get the very same new vertex (no crack).
    private func clip(_ polygon: [ClipVertex], coordinate: KeyPath<ClipVertex, Double>, bound: Double, keepAbove: Bool) -> [ClipVertex] {
        guard !polygon.isEmpty else { return [] }
        func isIn(_ p: ClipVertex) -> Bool { keepAbove ? p[keyPath: coordinate] >= bound : p[keyPath: coordinate] <= bound }
        var result: [ClipVertex] = []
        for k in polygon.indices {
            let a = polygon[k], b = polygon[(k + 1) % polygon.count]
            if isIn(a) { result.append(a) }
            if isIn(a) != isIn(b) {
                let (p, q) = (a.x, a.y) < (b.x, b.y) ? (a, b) : (b, a)
                let t = (bound - p[keyPath: coordinate]) / (q[keyPath: coordinate] - p[keyPath: coordinate])
                result.append(p.lerp(to: q, t))
            }
        }
        return result
    }
}
