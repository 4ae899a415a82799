import MeshTessellate
import SurfaceKit

/// The options shared by the tessellating endpoints: `steps` (0 or more, −1 or "auto"; absent: the
/// mesh's own), `diagonal`, and `maxTriangles` (at most the server's budget).
struct TessellationRequest {
    var document: MeshDocument
    var options: TessellationOptions

    /// The largest `steps` read as a number; anything above is far over every budget anyway.
    static let largestSteps = 1_000_000

    /// `kept`: the last mesh read, reused where the new one differs from it only in some vertices.
    /// `meshes`: the meshes kept by tag, for a body that sends `base` and `edits` instead of `mesh`.
    init(_ body: RequestBody, budget: Int, kept: KeptMeshText? = nil, meshes: KeptMeshes? = nil) throws(APIError) {
        if let meshes, body.members["base"] != nil {
            guard body.members["mesh"] == nil else {
                throw APIError(.badRequest, path: "base", "send either 'mesh' or 'base' with 'edits', not both")
            }
            guard let tag = try body.string("base") else { throw APIError(.badRequest, path: "base", "'base' must be a string") }
            document = try MeshEdits.apply(body, to: try meshes.document(tag))
        } else if let kept, let raw = body.members["mesh"] {
            document = try kept.document(raw) { _ throws(APIError) in try body.document() }
        } else {
            document = try body.document()
        }
        var options = TessellationOptions(maximumTriangles: budget)
        options.steps = try TessellationRequest.steps(body)
        options.diagonal = try body.choice("diagonal", DiagonalPolicy.self) ?? .shortest
        if let limit = try body.number("maxTriangles") {
            guard limit >= 0, limit == limit.rounded() else {
                throw APIError(.badRequest, path: "maxTriangles", "'maxTriangles' must be a whole number ≥ 0")
            }
            options.maximumTriangles = Int(min(limit, Double(budget)))
        }
        if let tolerance = try body.number("tolerance") {
            guard tolerance > 0 else { throw APIError(.badRequest, path: "tolerance", "'tolerance' must be above 0 (points)") }
            options.tolerance = tolerance
        }
        self.options = options
    }

    static func steps(_ body: RequestBody) throws(APIError) -> SubdivisionSteps? {
        if let text = body.raw("steps"), text.hasPrefix("\"") {
            guard try body.string("steps") == "auto" else {
                throw APIError(.badRequest, path: "steps", "'steps' must be a number from 0, −1 or \"auto\"")
            }
            return .automatic
        }
        guard let number = try body.number("steps") else { return nil }
        guard number == number.rounded(), number >= -1 else {
            throw APIError(.badRequest, path: "steps", "'steps' must be a whole number from 0, −1 or \"auto\"")
        }
        if number == -1 { return .automatic }
        // Steps far past any budget are still a request for that many: the budget refuses them
        // with the count they would need.
        return .fixed(Int(min(number, Double(largestSteps))))
    }
}

extension PainterSorter.Mode {
    /// The sort named in a request (the library's names, `bsp` too, as the command line); none
    /// when absent.
    static func named(_ body: RequestBody) throws(APIError) -> PainterSorter.Mode {
        try body.choice("sort", PainterSorter.Mode.self) ?? .none
    }
}
