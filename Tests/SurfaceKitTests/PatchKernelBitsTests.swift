import Foundation
import TestSupport
import Testing

@testable import SurfaceKit

// The kernels automatic steps runs most (patch positions, sampled second derivatives, gathering
// every face's patch, finding the irregular vertices) take shortcuts that must not change a bit of
// what they return: positions and second derivatives sum only the lanes they return, a patch
// skips mirroring where no slot is a phantom, and corner tests run once per vertex. Expected
// values here are the plain computations written out in the test: the tensor-product sums over
// all eight homogeneous lanes in the documented order, the quotient rule on them, and the
// face-by-face neighbourhood with phantoms mirrored.

@Suite struct PatchKernelBitsTests {
    /// A patch of random homogeneous control values with weights in 0.5...2 (from and to in the
    /// unit box, lanes 6 and 7 zero, as meshes give).
    static func randomPatch(_ rng: inout SplitMix64) throws -> RationalPatch {
        let control = (0..<16).map { _ -> SIMD8<Double> in
            let w = rng.uniform(0.5...2)
            return SIMD8(
                w * rng.uniform(-1...1), w * rng.uniform(-1...1), w * rng.uniform(-1...1), w * rng.uniform(-1...1),
                w * rng.uniform(-1...1), w, 0, 0)
        }
        return try #require(RationalPatch(control: control))
    }

    static func sameBits(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool {
        (0..<3).allSatisfy { a[$0].bitPattern == b[$0].bitPattern }
    }

    /// P = Σ_row bv[row]·(Σ_column bu[column]·C) over all eight lanes, then `to` over the weight.
    static func eightLanePosition(_ patch: RationalPatch, u: Double, v: Double) -> SIMD3<Double> {
        let bu = RationalPatch.basis(u), bv = RationalPatch.basis(v), c = patch.control
        var s = SIMD8<Double>()
        for row in 0..<4 {
            let b = 4 * row
            let c0: SIMD8<Double> = bu[0] * c[b], c1: SIMD8<Double> = bu[1] * c[b + 1]
            let c2: SIMD8<Double> = bu[2] * c[b + 2], c3: SIMD8<Double> = bu[3] * c[b + 3]
            let r: SIMD8<Double> = c0 + c1 + c2 + c3
            s += bv[row] * r
        }
        return SIMD3(s[2], s[3], s[4]) / s[5]
    }

    @Test func positionIsTheEightLaneSumToTheBit() throws {
        var rng = SplitMix64(seed: 24)
        for _ in 0..<50 {
            let patch = try Self.randomPatch(&rng)
            for (u, v) in [(0.0, 0.0), (1.0, 1.0), (0.5, 0.25)] + (0..<20).map({ _ in (rng.uniform(0...1), rng.uniform(0...1)) }) {
                let p = patch.position(u: u, v: v)
                #expect(Self.sameBits(p, Self.eightLanePosition(patch, u: u, v: v)), "(\(u), \(v))")
                // And the value is the rational patch's point (a different summation order).
                let exact = patch.evaluate(u: u, v: v).to
                #expect(((p - exact) * (p - exact)).sum().squareRoot() <= 1e-12)
            }
        }
    }

    /// The second derivatives on the n × n grid, over all eight lanes: along u per sampled u and
    /// row (pairs summed first), then along v, then the quotient rule.
    static func eightLaneGrid(_ patch: RationalPatch, samples n: Int) -> [PatchCurvature] {
        let c = patch.control
        func weights(_ t: Double) -> [SIMD4<Double>] {
            [RationalPatch.basis(t), RationalPatch.derivative(t), SIMD4(1 - t, 3 * t - 2, 1 - 3 * t, t)]
        }
        let w = (0..<n).map { weights(Double($0) / Double(n - 1)) }
        var along: [[SIMD8<Double>]] = []
        for i in 0..<n {
            for row in 0..<4 {
                let c0 = c[4 * row], c1 = c[4 * row + 1], c2 = c[4 * row + 2], c3 = c[4 * row + 3]
                along.append(w[i].map { b in (b[0] * c0 + b[1] * c1) + (b[2] * c2 + b[3] * c3) })
            }
        }
        var result: [PatchCurvature] = []
        for j in 0..<n {
            let (b, d, dd) = (w[j][0], w[j][1], w[j][2])
            for i in 0..<n {
                var s = SIMD8<Double>(), su = s, sv = s, suu = s, suv = s, svv = s
                for row in 0..<4 {
                    let a = along[4 * i + row]
                    s += b[row] * a[0]
                    su += b[row] * a[1]
                    sv += d[row] * a[0]
                    suu += b[row] * a[2]
                    suv += d[row] * a[1]
                    svv += dd[row] * a[0]
                }
                let inverse = 1 / s[5]
                let p = s * inverse
                let pu = (su - p * su[5]) * inverse
                let pv = (sv - p * sv[5]) * inverse
                let twoPu: SIMD8<Double> = 2 * pu, twoPv: SIMD8<Double> = 2 * pv
                let uuA: SIMD8<Double> = suu - twoPu * su[5]
                let puu: SIMD8<Double> = (uuA - p * suu[5]) * inverse
                let uvA: SIMD8<Double> = suv - pu * sv[5]
                let uvB: SIMD8<Double> = uvA - pv * su[5]
                let puv: SIMD8<Double> = (uvB - p * suv[5]) * inverse
                let vvA: SIMD8<Double> = svv - twoPv * sv[5]
                let pvv: SIMD8<Double> = (vvA - p * svv[5]) * inverse
                result.append(
                    PatchCurvature(
                        uu: SIMD3(puu[2], puu[3], puu[4]), uv: SIMD3(puv[2], puv[3], puv[4]), vv: SIMD3(pvv[2], pvv[3], pvv[4])))
            }
        }
        return result
    }

    @Test(arguments: [2, 3, 5])
    func curvatureGridIsTheEightLaneQuotientToTheBit(samples: Int) throws {
        var rng = SplitMix64(seed: 2400 + UInt64(samples))
        for _ in 0..<50 {
            let patch = try Self.randomPatch(&rng)
            let grid = patch.curvatureGrid(samples: samples)
            let expected = Self.eightLaneGrid(patch, samples: samples)
            try #require(grid.count == samples * samples)
            for k in grid.indices {
                #expect(Self.sameBits(grid[k].uu, expected[k].uu) && Self.sameBits(grid[k].uv, expected[k].uv))
                #expect(Self.sameBits(grid[k].vv, expected[k].vv))
            }
        }
    }

    /// Meshes with boundaries (phantom slots), corners, and extraordinary interior vertices.
    static let meshes: [(vertices: [MeshVertex], faces: [MeshFace])] = [
        jitteredGrid(rows: 5, columns: 7, seed: 1),
        fan(sectors: 3, size: 3, seed: 2),
        fan(sectors: 5, size: 3, seed: 3),
        fan(sectors: 6, size: 2, seed: 4),
    ]

    @Test(arguments: meshes.indices)
    func patchesAndIrregularVerticesAreTheFaceByFaceOnes(mesh index: Int) throws {
        let mesh = Self.meshes[index]
        let topology = try SurfaceTopology(faces: mesh.faces, vertexCount: mesh.vertices.count)
        let surfaces = FaceSurfaces(topology: topology)
        let level = topology.level
        let control = FaceSurfaces.homogeneous(vertices: mesh.vertices, weights: topology.vertexWeights(faces: mesh.faces))
        var patches = 0, phantoms = 0
        for f in 0..<surfaces.faceCount {
            let patch = surfaces.patch(ofFace: f, control: control)
            guard let indices = level.regularNeighbourhood(ofFace: f) else {
                #expect(patch == nil, "face \(f) has no regular neighbourhood")
                continue
            }
            if index == 0 {
                // The grid's own numbering, independent of the topology code: slot (a, b) of face
                // (r, c) is vertex (r − 1 + a, c − 1 + b), −1 (a phantom) off the grid.
                let (rows, columns) = (5, 7)
                let (r, c) = (f / columns, f % columns)
                let expected = (0..<16).map { slot -> Int32 in
                    let (i, j) = (r - 1 + slot / 4, c - 1 + slot % 4)
                    return (0...rows).contains(i) && (0...columns).contains(j) ? Int32(i * (columns + 1) + j) : -1
                }
                #expect(indices == expected, "face \(f)")
            }
            var values = indices.map { $0 >= 0 ? control[Int($0)] : SIMD8<Double>() }
            TopologyLevel.fillPhantoms(&values, indices: indices)
            let got = try #require(patch, "face \(f)")
            #expect(got.control.count == 16)
            for k in 0..<16 {
                #expect((0..<8).allSatisfy { got.control[k][$0].bitPattern == values[k][$0].bitPattern }, "face \(f), slot \(k)")
            }
            patches += 1
            if indices.contains(where: { $0 < 0 }) { phantoms += 1 }
        }
        let irregular = (0..<surfaces.vertexCount).filter { surfaces.isIrregular(vertex: $0) }
        #expect(surfaces.irregularVertices == irregular)
        // The cases the shortcuts skip and take are both exercised.
        #expect(patches > 0)
        if index == 0 { #expect(phantoms > 0 && phantoms < patches && irregular.isEmpty) } else { #expect(!irregular.isEmpty) }
    }
}
