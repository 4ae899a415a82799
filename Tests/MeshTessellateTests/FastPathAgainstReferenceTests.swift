import SurfaceKit
import Testing

@testable import MeshTessellate

// The ranked fast path (DepthRankedOrder with its coverage screen and sweep) against the reference
// pipeline (every overlapping pair, the occlusion graph, a BSP tree per cycle) on random scenes
// built to reach each of the fast path's shortcuts: fans folded over their centre (corners wound
// once or more), cones whose rim winds twice, slivers whose rounded area may have the wrong sign,
// neighbours that touch only at a corner or along an edge, and tessellation-like grids folded over
// themselves, listed as the tessellator lists them and shuffled. Neither is trusted: both draws
// are compared with a z-buffer at pixel centres (SortSupport.compare).

@Suite struct FastPathAgainstReferenceTests {
    typealias S = SortSupport

    /// What happened to one scene: pixels checked, and whether the fast path gave an order.
    struct Outcome {
        var checked = 0
        var ranked = false
    }

    /// Draws `scene` by the fast path (when it gives an order) and by the reference, and expects
    /// both to match the z-buffer.
    private func check(_ scene: TriangleMesh, _ label: String) throws -> Outcome {
        let reference = S.projected(scene, geometry: S.flat)
        let pool = try SortPool(clipping: scene, geometry: S.flat)
        var outcome = Outcome()
        if let ranked = DepthRankedOrder.order(screen: pool.screen, triangles: pool.triangles, limit: 1 << 24) {
            outcome.ranked = true
            let drawn = pool.mesh(order: ranked.order, triangles: pool.triangles, faces: pool.sourceFaces, space: .screen)
            let check = S.compare(drawn: S.triangles(of: drawn), reference: reference, resolution: 160)
            #expect(check.mismatches == 0, "\(label): the ranked order differs from the z-buffer at \(check.mismatches) pixels")
            outcome.checked += check.checked
        }
        let drawn = try GoldenOutputTests.referenceMesh(scene, geometry: S.flat)
        let check = S.compare(drawn: S.triangles(of: drawn), reference: reference, resolution: 160)
        #expect(check.mismatches == 0, "\(label): the reference differs from the z-buffer at \(check.mismatches) pixels")
        outcome.checked += check.checked
        return outcome
    }

    /// Fans around one corner, depths rising along a random slope so that neighbours touch in
    /// depth at the corner only, each blade spanning a random angle so that blades fold over others;
    /// `turns` full turns of blades make a cone whose rim winds that often around the corner.
    private func fan(random: inout TessSupport.Random, blades: Int, turns: Int, sliver: Bool) -> TriangleMesh {
        let centre = SIMD2(50.0, 50)
        let slope = SIMD2(random.uniform(-1...1), random.uniform(-1...1))
        func point(_ p: SIMD2<Double>) -> SIMD3<Double> { SIMD3(p.x, p.y, 10 + (slope * (p - centre)).sum() / 10) }
        var positions = [point(centre)]
        var triangles: [SIMD3<Int32>] = []
        let step = 2 * Double.pi * Double(turns) / Double(blades)
        for b in 0..<blades {
            let a0 = Double(b) * step, a1 = a0 + step * random.uniform(0.6...2.2)
            let r0 = random.uniform(12...45), r1 = random.uniform(12...45)
            var q = centre + r1 * SIMD2(Double.cos(a1), Double.sin(a1))
            let p = centre + r0 * SIMD2(Double.cos(a0), Double.sin(a0))
            if sliver && b % 3 == 0 {
                // The third corner a hair off the line through the centre and p: a sliver whose
                // rounded area may have either sign.
                q = centre + (p - centre) * 0.7 + SIMD2(-(p - centre).y, (p - centre).x) * 1e-15
            }
            let base = Int32(positions.count)
            positions += [point(p), point(q)]
            triangles.append(random.uniform(0...1) < 0.5 ? SIMD3(0, base, base + 1) : SIMD3(0, base + 1, base))
        }
        return S.layerMesh(positions: positions, triangles: triangles)
    }

    /// An n × n grid listed as the tessellator lists it (a quad's two triangles one after the
    /// other, quads row by row), folded over itself along x and y so that rows and columns cover
    /// others at other depths; corners of quads far apart on the grid then touch on screen.
    private func foldedGrid(random: inout TessSupport.Random, n: Int) -> TriangleMesh {
        let ax = random.uniform(0.5...2.5), ay = random.uniform(0...1.5), k = random.uniform(1...3)
        let phase = random.uniform(0...6)
        var positions: [SIMD3<Double>] = []
        for i in 0...n {
            for j in 0...n {
                let u = Double(j) / Double(n), v = Double(i) / Double(n)
                let x = 50 + 30 * (u - 0.5) + 30 * ax / (2 * Double.pi * k) * Double.sin(2 * Double.pi * k * u + phase)
                let y = 50 + 30 * (v - 0.5) + 30 * ay / (2 * Double.pi * k) * Double.sin(2 * Double.pi * k * v)
                positions.append(SIMD3(x, y, 20 * Double.cos(2 * Double.pi * k * u + phase) + 5 * Double.sin(3 * v)))
            }
        }
        var triangles: [SIMD3<Int32>] = []
        for i in 0..<n {
            for j in 0..<n {
                let v0 = Int32(i * (n + 1) + j), v1 = v0 + 1, v3 = v0 + Int32(n + 1), v2 = v3 + 1
                if random.uniform(0...1) < 0.5 {
                    triangles += [SIMD3(v0, v1, v2), SIMD3(v0, v2, v3)]
                } else {
                    triangles += [SIMD3(v0, v1, v3), SIMD3(v1, v2, v3)]
                }
            }
        }
        return S.layerMesh(positions: positions, triangles: triangles)
    }

    /// The same triangles listed in a random order, over vertices numbered in a random order.
    private func shuffled(_ mesh: TriangleMesh, random: inout TessSupport.Random) -> TriangleMesh {
        let renumber = Array(0..<Int32(mesh.positions.count)).shuffled(using: &random)
        var positions = mesh.positions
        for (old, new) in renumber.enumerated() { positions[Int(new)] = mesh.positions[old] }
        let triangles = mesh.triangles.shuffled(using: &random).map { t in
            SIMD3(renumber[Int(t.x)], renumber[Int(t.y)], renumber[Int(t.z)])
        }
        return S.layerMesh(positions: positions, triangles: triangles)
    }

    @Test func foldedFansConesAndSliversDrawAsTheZBufferByBothPaths() throws {
        var random = TessSupport.Random(seed: 0x28a_f0)
        var ranked = 0, checked = 0, scenes = 0
        for turns in 1...3 {
            for sliver in [false, true] {
                for _ in 0..<4 {
                    let scene = fan(random: &random, blades: 5 + 4 * turns, turns: turns, sliver: sliver)
                    let outcome = try check(scene, "fan turning \(turns), slivers \(sliver)")
                    ranked += outcome.ranked ? 1 : 0
                    checked += outcome.checked
                    scenes += 1
                }
            }
        }
        // The fast path has to be taken for the comparison to mean anything.
        #expect(ranked >= scenes / 2, "the ranked order was taken on \(ranked) of \(scenes) scenes")
        #expect(checked > 100_000)
    }

    @Test func foldedGridsAsListedAndShuffledDrawAsTheZBufferByBothPaths() throws {
        var random = TessSupport.Random(seed: 0x28a_9d)
        var ranked = 0, checked = 0, scenes = 0
        for n in [4, 7, 10] {
            for _ in 0..<3 {
                let grid = foldedGrid(random: &random, n: n)
                for (scene, label) in [(grid, "listed"), (shuffled(grid, random: &random), "shuffled")] {
                    let outcome = try check(scene, "grid \(n) \(label)")
                    ranked += outcome.ranked ? 1 : 0
                    checked += outcome.checked
                    scenes += 1
                }
            }
        }
        #expect(ranked >= scenes / 2, "the ranked order was taken on \(ranked) of \(scenes) scenes")
        #expect(checked > 100_000)
    }

    @Test func neighboursTouchingAtCornersAndEdgesDrawAsTheZBufferByBothPaths() throws {
        // Pairs of triangles sharing one corner or one edge on a random slope, folded over each
        // other or not: the first's free corners at or below the slope, the second's at or above,
        // so they touch in depth where they meet and never cross. Each pair lies 20 deeper than the
        // next, and every fourth scene adds a triangle that crosses some of them.
        var random = TessSupport.Random(seed: 0x28a_c0)
        var ranked = 0, checked = 0
        for scene in 0..<16 {
            let slope = SIMD2(random.uniform(-1...1), random.uniform(-1...1))
            var positions: [SIMD3<Double>] = []
            var triangles: [SIMD3<Int32>] = []
            for pair in 0..<6 {
                func point(_ p: SIMD2<Double>, lift: Double = 0) -> SIMD3<Double> {
                    SIMD3(p.x, p.y, 20 * Double(pair) + (slope * (p - SIMD2(50, 50))).sum() / 10 + lift)
                }
                func near(_ v: SIMD2<Double>) -> SIMD2<Double> { v + SIMD2(random.uniform(-25...25), random.uniform(-25...25)) }
                let v = SIMD2(random.uniform(20...80), random.uniform(20...80))
                let a = near(v), b = near(v), c = near(v), d = near(v)
                let base = Int32(positions.count)
                positions += [point(v), point(a, lift: random.uniform(-3...0)), point(b), point(c, lift: random.uniform(0...3))]
                if scene % 2 == 0 {
                    triangles += [SIMD3(base, base + 1, base + 2), SIMD3(base, base + 2, base + 3)] // the edge v–b
                } else {
                    positions.append(point(d, lift: random.uniform(0...3)))
                    triangles += [SIMD3(base, base + 1, base + 2), SIMD3(base, base + 3, base + 4)] // the corner v
                }
            }
            if scene % 4 == 3 {
                let base = Int32(positions.count)
                for _ in 0..<3 { positions.append(SIMD3(random.uniform(5...95), random.uniform(5...95), random.uniform(0...100))) }
                triangles.append(SIMD3(base, base + 1, base + 2))
            }
            let outcome = try check(S.layerMesh(positions: positions, triangles: triangles), "touching scene \(scene)")
            ranked += outcome.ranked ? 1 : 0
            checked += outcome.checked
        }
        #expect(ranked >= 8, "the ranked order was taken on \(ranked) of 16 scenes")
        #expect(checked > 100_000)
    }
}
