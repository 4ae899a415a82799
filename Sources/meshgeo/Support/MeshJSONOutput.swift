import SurfaceKit

/// Writes mesh.json that every command reads back: the last checks before `identity`, `example`,
/// `fit` and `interpolate` write a document.
///
/// - Every number is finite (the writer would otherwise write `null`): a final guard, exit 65.
/// - Every number is inside ``NumericRange`` (what the reader of every command accepts).
/// - The file is no larger than ``InputFile/maximumBytes``, the most any command reads.
///
/// A failure names where the bad value came from (`cause`): an option for `identity` or
/// `interpolate --fraction`, the computation for `fit`. Nothing is written then.
enum MeshJSONOutput {
    static func write(_ document: MeshDocument, to path: String?, cause: Failure.Code = .dataError, blame: String) throws {
        do {
            try document.validate()
            try document.checkNumericRange()
        } catch let error as MeshError {
            throw Failure(cause, "\(blame): \(error.description)")
        }
        let bytes = document.jsonBytes()
        guard bytes.count <= InputFile.maximumBytes else {
            throw Failure(
                cause,
                "\(blame): the mesh.json would be \(bytes.count >> 20) MiB, over the \(InputFile.maximumBytes >> 20) MiB that meshgeo reads"
            )
        }
        try OutputFile.write(bytes, to: path)
    }
}
