import ArgumentParser
import MeshRender
import MeshTessellate
import SurfaceKit

/// `--format` and `--texture`, shared by the commands that write triangles.
struct ExportArguments: ParsableArguments {
    @Option(
        help:
            "The output format: obj (Wavefront text), glb (binary glTF) or ply (binary PLY). By default the -o file's extension (.obj, .glb, .ply) decides, else obj."
    )
    var format: MeshFormat?

    @Option(
        help: ArgumentHelp(
            "With --format glb: a PNG or JPEG image to embed as the layer's content.",
            valueName: "image.png"),
        completion: .file(extensions: ["png", "jpg", "jpeg"]))
    var texture: String?

    /// Refuses, before any work, a format that contradicts the `-o` file's extension, an
    /// extension of a format these commands do not write, and `--texture` without glb output.
    func checkFormat(output: String?) throws {
        let format = try resolvedFormat(output: output)
        if texture != nil, format != .glb {
            throw ValidationError("--texture needs glb output (--format glb, or an -o file ending in .glb).")
        }
    }

    /// `--format`, else the `-o` file's extension, else OBJ (standard output, or a name with
    /// another extension).
    func resolvedFormat(output: String?) throws -> MeshFormat {
        let named = try OutputExtension.meshFormat(of: output)
        guard let format else { return named ?? .obj }
        if let named, named != format, let output {
            throw ValidationError(
                "--format \(format.rawValue) does not match the -o file '\(output)', whose extension says \(named.rawValue).")
        }
        return format
    }

    /// Reads `--texture` (bounded as every input is), before any costly work, so a wrong path
    /// fails at once: exit 66 when it cannot be read, 65 when it is not a PNG or JPEG image.
    func loadTexture() throws -> GLBTexture? {
        guard let texture else { return nil }
        let bytes = try InputFile.read(texture)
        let name = InputFile.displayName(texture)
        guard let image = GLBTexture(bytes: bytes) else {
            throw Failure(.dataError, file: name, "not a PNG or JPEG image")
        }
        // Embedded as they are, so decoded first in full (as `render` does): a truncated or
        // corrupt image is refused, not embedded.
        do {
            _ = try RGBAImage(imageBytes: bytes)
        } catch {
            throw Failure(.dataError, file: name, error.message)
        }
        return image
    }

    /// Writes `mesh` in the chosen format to `path` (standard output when nil), after a final
    /// check that every number it would write is finite (exit 65 otherwise, nothing written); glb
    /// also carries `layer`'s lights and material.
    func write(_ mesh: TriangleMesh, texture: GLBTexture? = nil, layer: LayerProperties? = nil, to path: String?) throws {
        let format = try resolvedFormat(output: path)
        try mesh.checkFinite(asFloat32: format != .obj)
        switch format {
        case .obj:
            // Streamed: the text is formatted a group of pieces at a time, never whole.
            try OutputFile.write(streaming: { try mesh.writeOBJ($0) }, to: path)
        case .ply:
            try OutputFile.write(mesh.plyBytes(), to: path)
        case .glb:
            try OutputFile.write(mesh.glbBytes(texture: texture, layer: layer), to: path)
        }
    }
}
