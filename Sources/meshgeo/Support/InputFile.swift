import Foundation
import SurfaceKit

/// Reading mesh.json from a path or standard input ('-'), bounded in size.
enum InputFile {
    /// The largest input read: larger files are refused rather than loaded.
    static let maximumBytes = 256 << 20

    /// How the file is named in messages.
    static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }

    static func read(_ path: String) throws -> [UInt8] {
        let name = displayName(path)
        let handle: FileHandle
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw Failure(.noInput, file: name, "no such file")
            }
            guard !isDirectory.boolValue, let h = FileHandle(forReadingAtPath: path) else {
                throw Failure(.noInput, file: name, "cannot be read")
            }
            handle = h
        }
        defer { if path != "-" { try? handle.close() } }
        var bytes = [UInt8]()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw Failure(.noInput, file: name, "cannot be read: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { break }
            bytes.append(contentsOf: chunk)
            if bytes.count > maximumBytes {
                throw Failure(.dataError, file: name, "larger than \(maximumBytes >> 20) MiB, the most meshgeo reads")
            }
        }
        return bytes
    }

    /// Reads and decodes a mesh document; errors name the file and the JSON path. Numbers outside
    /// the range whose results stay finite (``NumericRange``) are refused here, before any work.
    static func document(_ path: String) throws -> MeshDocument {
        let bytes = try read(path)
        do {
            let document = try MeshDocument(json: bytes)
            try document.checkNumericRange()
            return document
        } catch let error as MeshError {
            throw Failure(error, file: displayName(path))
        }
    }
}
