/// An error in mesh data, naming where it is: a JSON path such as `faces[12].indices[2]`.
public struct MeshError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is; lets callers branch without parsing the message.
    public enum Kind: String, Hashable, Sendable {
        /// The JSON text is not well-formed.
        case syntax
        /// A value has the wrong type, is missing, or is not allowed.
        case invalidValue
        /// A key that mesh.json does not know.
        case unknownKey
        /// An index that names no vertex (or face).
        case indexOutOfRange
        /// Faces that do not form a valid surface: an edge used by three faces, inconsistent
        /// orientation, a face with repeated vertices.
        case topology
        /// Two meshes that cannot be interpolated, or a mesh whose faces are not those a
        /// prepared topology (a `Tessellator`) was built for.
        case incompatible
        /// A request that would exceed a resource limit (steps, triangle budget, input size).
        case limitExceeded
        /// An operation that needs a property the mesh does not have (e.g. flatness).
        case unsupported
    }

    public var kind: Kind
    /// Where the problem is (a JSON path); empty for the document as a whole.
    public var path: String
    /// What is wrong, one line.
    public var message: String

    public init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    /// `path: message`, or just the message when there is no path.
    public var description: String {
        path.isEmpty ? message : "\(path): \(message)"
    }
}
