import ArgumentParser
import MeshRender
import MeshTessellate

/// `--format` and `--texture`, shared by the commands that write triangles.
struct ExportArguments: ParsableArguments {
    @Option(help: "The output format: obj (Wavefront text), glb (binary glTF) or ply (binary PLY).")
    var format: MeshFormat = .obj

    @Option(
        help: ArgumentHelp(
            "With --format glb: a PNG or JPEG image to embed as the layer's content.",
            valueName: "image.png"),
        completion: .file(extensions: ["png", "jpg", "jpeg"]))
    var texture: String?

    func validate() throws {
        if texture != nil, format != .glb {
            throw ValidationError("--texture needs --format glb.")
        }
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
        // Embedded as they are, so checked first: a PNG is decoded in full (as `render` does), a
        // JPEG's structure is walked; a truncated or corrupt image is refused, not embedded.
        if image.mimeType == "image/png" {
            do {
                _ = try RGBAImage(png: bytes)
            } catch {
                throw Failure(.dataError, file: name, error.message)
            }
        } else if let problem = JPEGStructure.problem(in: bytes) {
            throw Failure(.dataError, file: name, "not a complete JPEG image: \(problem)")
        }
        return image
    }

    /// Writes `mesh` in the chosen format to `path` (standard output when nil), after a final
    /// check that every number it would write is finite (exit 65 otherwise, nothing written).
    func write(_ mesh: TriangleMesh, texture: GLBTexture? = nil, to path: String?) throws {
        try mesh.checkFinite(asFloat32: format != .obj)
        switch format {
        case .obj:
            // Streamed: the text is formatted a group of pieces at a time, never whole.
            try OutputFile.write(streaming: { try mesh.writeOBJ($0) }, to: path)
        case .ply:
            try OutputFile.write(mesh.plyBytes(), to: path)
        case .glb:
            try OutputFile.write(mesh.glbBytes(texture: texture), to: path)
        }
    }
}
