import Foundation
import MeshTessellate
import SurfaceKit
import Testing

@testable import MeshServe

/// The binary answer, byte by byte against a layout written here, and its finite check against
/// the library's.
@Suite struct MeshEncodingTests {
    static func mesh(position: Point3D) -> TriangleMesh {
        TriangleMesh(
            space: .points, positions: [position, Point3D(1, 0, 0), Point3D(0, 1, 0)],
            from: [LayerPoint(0, 0), LayerPoint(1, 0), LayerPoint(0, 1)],
            normals: Array(repeating: Point3D(0, 0, 1), count: 3), triangles: [SIMD3(0, 1, 2)], sourceFaces: [0])
    }

    @Test func layoutIsCountsThenFloat32ArraysThenIndices() throws {
        let bytes = Array(try MeshEncoding.binary(MeshEncodingTests.mesh(position: Point3D(0.1, -2.5, 3e38))).readableBytesView)
        func word(_ k: Int) -> UInt32 { bytes[(4 * k)..<(4 * k + 4)].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        func float(_ k: Int) -> Float { Float(bitPattern: word(k)) }
        #expect(bytes.count == 8 + 3 * 32 + 12)
        #expect(word(0) == 3 && word(1) == 1)
        // Positions from word 2, normals from 11, layer points from 20, indices from 26.
        #expect([float(2), float(3), float(4)] == [Float(0.1), -2.5, Float(3e38)])
        #expect([float(5), float(6), float(7), float(8), float(9), float(10)] == [1, 0, 0, 0, 1, 0])
        #expect((11..<20).map(float) == [0, 0, 1, 0, 0, 1, 0, 0, 1])
        #expect((20..<26).map(float) == [0, 0, 1, 0, 0, 1])
        #expect((26..<29).map(word) == [0, 1, 2])
    }

    @Test func valuesBeyondFloat32AreRefusedWithTheLibrarysMessage() throws {
        // 4e38 is finite as a Double but over the largest Float (about 3.4e38).
        for bad in [4e38, -Double.infinity, Double.nan] {
            let mesh = MeshEncodingTests.mesh(position: Point3D(0, bad, 0))
            var expected: MeshError?
            do { try mesh.checkFinite(asFloat32: true) } catch let error as MeshError { expected = error }
            guard let expected else {
                Issue.record("checkFinite should refuse \(bad)")
                continue
            }
            #expect(throws: expected) { try MeshEncoding.binary(mesh) }
        }
    }
}
