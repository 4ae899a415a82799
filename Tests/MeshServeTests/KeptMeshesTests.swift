import SurfaceKit
import Testing

@testable import MeshServe

/// The meshes kept for edit requests: at most eight, at most the byte budget among them, the
/// newest always kept, the oldest forgotten first.
@Suite struct KeptMeshesTests {
    /// A grid of `rows` × `columns` faces: (rows + 1)(columns + 1) vertices of a from point (2
    /// doubles) and a to point (3 doubles, padded to 4 by SIMD3's stride), and rows · columns faces
    /// of four indices and four weights.
    static func document(rows: Int, columns: Int) throws -> (MeshDocument, bytes: Int) {
        let vertexBytes = 2 * 8 + 4 * 8
        let faceBytes = 4 * 8 + 4 * 8
        let bytes = (rows + 1) * (columns + 1) * vertexBytes + rows * columns * faceBytes
        return (try ServeSupport.grid(rows: rows, columns: columns), bytes)
    }

    static func isKept(_ meshes: KeptMeshes, _ tag: String) -> Bool {
        do {
            _ = try meshes.document(tag)
            return true
        } catch {
            #expect(error.status == .conflict && error.path == "base")
            return false
        }
    }

    @Test func theBytesOfADocumentAreItsVertexAndFaceStorage() throws {
        let (document, bytes) = try Self.document(rows: 3, columns: 5)
        #expect(KeptMeshes.bytes(document) == bytes)
    }

    @Test func atMostEightSmallMeshesAreKept() throws {
        let meshes = KeptMeshes(instance: 7)
        let (document, _) = try Self.document(rows: 2, columns: 2)
        let tags = (0..<11).map { _ in meshes.keep(document) }
        #expect(Set(tags).count == 11)
        #expect(tags.map { Self.isKept(meshes, $0) } == Array(repeating: false, count: 3) + Array(repeating: true, count: 8))
    }

    @Test func largeMeshesAreKeptWithinTheBudget() throws {
        let (document, bytes) = try Self.document(rows: 10, columns: 10)
        // Room for three such meshes and part of a fourth.
        let meshes = KeptMeshes(instance: 7, budget: 3 * bytes + bytes / 2)
        let tags = (0..<6).map { _ in meshes.keep(document) }
        #expect(tags.map { Self.isKept(meshes, $0) } == [false, false, false, true, true, true])
        // A smaller mesh after them: it and the two newest large ones fit; the third does not.
        let (small, smallBytes) = try Self.document(rows: 8, columns: 8)
        #expect(smallBytes + 3 * bytes > 3 * bytes + bytes / 2 && smallBytes + 2 * bytes <= 3 * bytes + bytes / 2)
        let last = meshes.keep(small)
        #expect(([last] + tags.suffix(3)).map { Self.isKept(meshes, $0) } == [true, false, true, true])
    }

    @Test func theNewestMeshIsKeptEvenOverTheBudgetAlone() throws {
        let (document, bytes) = try Self.document(rows: 6, columns: 6)
        let meshes = KeptMeshes(instance: 7, budget: bytes - 1)
        let first = meshes.keep(document)
        #expect(Self.isKept(meshes, first))
        let second = meshes.keep(document)
        #expect(!Self.isKept(meshes, first) && Self.isKept(meshes, second))
    }
}
