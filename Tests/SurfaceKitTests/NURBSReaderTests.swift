import Foundation
import TestSupport
import Testing

@testable import SurfaceKit

// The STEP and IGES files read back by OpenCASCADE (through gmsh's Python module, which
// scripts/setup.sh installs) and evaluated at dyadic parameters against the tessellated limit
// surface: equal to 1e-9 of the layer's size where the surface is exact, within the tolerance
// where it is approximated. The reader must log no warning or error.

private let layerSize = SIMD2<Double>(320, 480)

/// What the reader script reports for one file (see scripts/occ_evaluate.py).
private struct ReadBack {
    var messages: [String]
    var faces: [(bounds: [[Double]], corner: [Double], points: [[Double]])]
}

private func packageRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// Runs scripts/occ_evaluate.py on `bytes` written as `name` in a fresh directory.
private func readWithOpenCASCADE(_ bytes: [UInt8], name: String, perUnit: Int) throws -> ReadBack {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nurbs-occ-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(name), result = directory.appendingPathComponent("result.json")
    try Data(bytes).write(to: file)
    let log = directory.appendingPathComponent("stderr.txt")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "python3", packageRoot().appendingPathComponent("scripts/occ_evaluate.py").path, file.path, "\(perUnit)", result.path,
    ]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    process.waitUntilExit()
    let errors = String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self)
    guard process.terminationStatus == 0 else {
        throw ReaderFailure(message: "the OpenCASCADE reader failed (run scripts/setup.sh to install gmsh): \(errors)")
    }
    let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: result)) as? [String: Any])
    let messages = try #require(json["messages"] as? [String])
    let faces = try #require(json["faces"] as? [[String: Any]]).map { face in
        (
            bounds: (face["bounds"] as? [[Double]]) ?? [], corner: (face["corner"] as? [Double]) ?? [],
            points: (face["points"] as? [[Double]]) ?? []
        )
    }
    return ReadBack(messages: messages, faces: faces)
}

private struct ReaderFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

private func distance(_ a: Point3D, _ b: Point3D) -> Double { ((a - b) * (a - b)).sum().squareRoot() }

@Suite(.serialized) struct NURBSReaderTests {
    /// Exports `mesh` to both formats, reads each back and compares every point the reader
    /// evaluates with the limit surface.
    private func check(_ mesh: MeshTransform, label: String) throws {
        let patches = try mesh.nurbsPatches(size: layerSize)
        let info = CADFileInfo(name: label, fileName: label)
        let steps: Int
        switch patches.layout {
        case .grid: steps = 3
        case .perFace: steps = 4
        }
        let n = 1 << steps
        let reference = try limitPoints(mesh, steps: steps, size: layerSize)
        let exactBound = 1e-9 * max(layerSize.x, layerSize.y)
        for (bytes, file) in [(patches.stepFile(info), "\(label).stp"), (patches.igesFile(info), "\(label).igs")] {
            let read = try readWithOpenCASCADE(bytes, name: file, perUnit: n)
            #expect(read.messages.isEmpty, "\(file): \(read.messages)")
            #expect(read.faces.count == patches.surfaces.count, "\(file): \(read.faces.count) faces")
            var compared = 0, worstExact = 0.0, worstApproximated = 0.0
            var matched = Set<Int>()
            var covered = Set<[Int]>()
            for face in read.faces {
                // The reader may list faces in another order: a face is the surface whose domain
                // equals its bounds (B-spline surfaces keep their knots) and which gives its first
                // point at that parameter.
                let first = face.corner
                guard face.bounds.count == 2, first.count == 5 else {
                    Issue.record("\(file): a face without bounds or points")
                    continue
                }
                let candidates = patches.surfaces.indices.filter { k in
                    let s = patches.surfaces[k]
                    return !matched.contains(k)
                        && abs(face.bounds[0][0] - s.domainU.lowerBound) <= 1e-12 && abs(face.bounds[0][1] - s.domainU.upperBound) <= 1e-12
                        && abs(face.bounds[1][0] - s.domainV.lowerBound) <= 1e-12 && abs(face.bounds[1][1] - s.domainV.upperBound) <= 1e-12
                        && distance(s.evaluate(u: first[0], v: first[1]), SIMD3(first[2], first[3], first[4])) <= exactBound
                }
                guard let k = candidates.first else {
                    Issue.record("\(file): no surface has the bounds \(face.bounds) and the point \(first)")
                    continue
                }
                matched.insert(k)
                let surface = patches.surfaces[k]
                for p in face.points where p.count == 5 {
                    let (u, v) = (p[0], p[1])
                    // The control faces whose squares hold (u, v), with the parameters there: on a
                    // grid, a point on a line between faces belongs to each of them.
                    var places: [(face: Int, u: Double, v: Double)] = []
                    switch patches.layout {
                    case .grid(let rows, let columns, let faces):
                        for j in Set([Int(u.rounded(.down)), Int(u.rounded(.up)) - 1]) where j >= 0 && j < columns {
                            for i in Set([Int(v.rounded(.down)), Int(v.rounded(.up)) - 1]) where i >= 0 && i < rows {
                                places.append((faces[i * columns + j], u - Double(j), v - Double(i)))
                            }
                        }
                    case .perFace:
                        places.append((surface.face ?? -1, u, v))
                    }
                    for place in places {
                        let a = Int((place.u * Double(n)).rounded()), b = Int((place.v * Double(n)).rounded())
                        let d = distance(SIMD3(p[2], p[3], p[4]), reference[place.face][b * (n + 1) + a])
                        if surface.isExact {
                            worstExact = max(worstExact, d)
                            #expect(d <= exactBound, "\(file): face \(place.face) at (\(place.u), \(place.v)): \(d)")
                        } else {
                            worstApproximated = max(worstApproximated, d)
                            #expect(d <= patches.tolerance, "\(file): face \(place.face) at (\(place.u), \(place.v)): \(d)")
                        }
                        compared += 1
                        covered.insert([place.face, a, b])
                    }
                }
            }
            #expect(matched.count == patches.surfaces.count, "\(file): \(matched.count) of \(patches.surfaces.count) surfaces read back")
            // Every dyadic parameter of every face was evaluated.
            #expect(covered.count == (n + 1) * (n + 1) * mesh.faces.count, "\(file): \(covered.count) parameters compared")
            print(
                "\(file): \(patches.surfaces.count) surfaces, \(compared) points, exact worst \(worstExact), approximated worst \(worstApproximated) (tolerance \(patches.tolerance))"
            )
        }
    }

    @Test func weightedGridsReadBackEqualToTheLimitSurface() throws {
        for (rows, columns, seed) in [(1, 1, 41 as UInt64), (3, 4, 42), (5, 2, 43)] {
            let parts = jitteredGrid(rows: rows, columns: columns, seed: seed)
            let mesh = try MeshTransform(vertices: parts.vertices, faces: parts.faces, depthNormalization: .average)
            try check(mesh, label: "grid-\(rows)x\(columns)")
        }
    }

    @Test func renumberedGridReadsBackEqualToTheLimitSurface() throws {
        let parts = jitteredGrid(rows: 3, columns: 3, seed: 44)
        var rng = SplitMix64(seed: 45)
        let order = Array(parts.vertices.indices).shuffled(using: &rng)
        var newIndex = [Int](repeating: 0, count: order.count)
        for (new, old) in order.enumerated() { newIndex[old] = new }
        let faces = parts.faces.reversed().map { f in MeshFace(indices: SIMD4((0..<4).map { newIndex[f.indices[$0]] }), weights: f.weights)
        }
        let mesh = try MeshTransform(vertices: order.map { parts.vertices[$0] }, faces: faces, depthNormalization: .min)
        try check(mesh, label: "renumbered")
    }

    @Test func extraordinaryVertexAndHoleReadBackWithinTheTolerance() throws {
        let fanParts = fan(sectors: 5, size: 2, seed: 46)
        try check(try MeshTransform(vertices: fanParts.vertices, faces: fanParts.faces, depthNormalization: .average), label: "valence5")
        let grid = jitteredGrid(rows: 4, columns: 4, seed: 47)
        let holed = grid.faces.enumerated().filter { ![5, 6].contains($0.offset) }.map(\.element)
        try check(try MeshTransform(vertices: grid.vertices, faces: holed, depthNormalization: .width), label: "hole")
    }
}
