import MeshTessellate
import SurfaceKit

#if canImport(Glibc)
    import Glibc
#endif

/// What must hold of any result the library returns, whatever the input: every index names a
/// vertex, every triangle names its control face, and (for an input inside the documented numeric
/// range) every number is finite. Breaking it is a finding, so it traps on purpose (this is the
/// fuzzer, not a path user data reaches in meshgeo).
enum FuzzInvariants {
    static func check(_ mesh: TriangleMesh, faceCount: Int, finite: Bool) {
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
        if finite {
            do {
                // The writers' own guard, as 32-bit floats too (glb, PLY).
                try mesh.checkFinite(asFloat32: true)
            } catch {
                fail("an input inside the numeric range gave a non-finite \(mesh.space) mesh: \(error)")
            }
        }
    }

    /// Numbers in written text (OBJ, SVG, mesh.json): no `nan`, `inf` or `null`.
    static func checkText(_ bytes: [UInt8], _ what: String) {
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        for word in ["nan", "inf", "null"] where text.contains(word) {
            fail("\(what) contains '\(word)'")
        }
    }

    static func checkFinite(_ values: [Double], _ what: String) {
        if let bad = values.first(where: { !$0.isFinite }) {
            fail("\(what) is \(bad)")
        }
    }

    /// An error a command reports cleanly (one line, a sysexits code): a ``MeshError``, or an
    /// image error from the renderer. Anything else escaping the library is a finding.
    static func checkClean(_ error: any Error, _ what: String) {
        guard error is MeshError || String(describing: type(of: error)) == "ImageError" else {
            fail("\(what) threw \(type(of: error)), not a MeshError: \(error)")
        }
    }

    static func fail(_ message: String) -> Never {
        print("fuzz invariant broken: \(message)")
        abort()
    }
}
