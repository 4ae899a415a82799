import ArgumentParser

/// What the `-o` file's extension says about the format to write.
enum OutputExtension {
    /// The extension, lower-cased, of the last path component; `nil` without one.
    static func of(_ path: String?) -> String? {
        guard let path, path != "-" else { return nil }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return ext.isEmpty ? nil : ext
    }

    /// Extensions of formats that the triangle writers do not produce: an `-o` name ending in
    /// one is refused rather than filled with OBJ text.
    static let otherFormats: Set<String> = ["gltf", "png", "svg", "jpg", "jpeg", "stl", "stp", "step", "igs", "iges"]

    /// The mesh format the extension names; `nil` for no extension or an unknown one (OBJ then,
    /// as before extensions were read). Throws for an extension of a format not written.
    static func meshFormat(of path: String?) throws -> MeshFormat? {
        guard let ext = of(path) else { return nil }
        if let format = MeshFormat(rawValue: ext) { return format }
        guard !otherFormats.contains(ext) else {
            let hint = ext == "gltf" ? " (glb is binary glTF: name it .glb)" : ""
            throw ValidationError(
                "'\(path ?? "")' names a .\(ext) file, which this command does not write\(hint): name it .obj, .glb or .ply, or pass --format."
            )
        }
        return nil
    }
}
