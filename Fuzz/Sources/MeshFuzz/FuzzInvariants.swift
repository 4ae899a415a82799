#if canImport(Glibc)
import Glibc
#endif
import MeshTessellate

/// What must hold of any mesh the library returns, whatever the input: every index names a vertex
/// and every triangle names its control face. Breaking it is a finding, so it traps on purpose
/// (this is the fuzzer, not a path user data reaches in meshgeo).
enum FuzzInvariants {
    static func check(_ mesh: TriangleMesh, faceCount: Int) {
        let n = mesh.positions.count
        guard mesh.from.count == n, mesh.normals.count == n else {
            fail("vertex arrays differ in length: \(n) positions, \(mesh.from.count) from, \(mesh.normals.count) normals")
        }
        guard mesh.sourceFaces.count == mesh.triangles.count else {
            fail("\(mesh.triangles.count) triangles but \(mesh.sourceFaces.count) source faces")
        }
        for t in mesh.triangles {
            for k in 0..<3 where t[k] < 0 || Int(t[k]) >= n {
                fail("triangle index \(t[k]) of \(n) vertices")
            }
        }
        for f in mesh.sourceFaces where f < 0 || Int(f) >= faceCount {
            fail("source face \(f) of \(faceCount)")
        }
    }

    static func fail(_ message: String) -> Never {
        print("fuzz invariant broken: \(message)")
        abort()
    }
}
