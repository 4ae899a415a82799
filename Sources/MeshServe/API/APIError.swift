import Foundation
import HTTPTypes
import Hummingbird
import SurfaceKit

/// A request the API refuses: an HTTP status and the body `{"error": "...", "path": "..."}`, where
/// `path` is the JSON path of the offending value (inside `mesh` for mesh data, as the command
/// line reports it; a request key such as `steps` otherwise; empty for the body as a whole).
struct APIError: Error, HTTPResponseError {
    var status: HTTPResponse.Status
    var message: String
    var path: String

    init(_ status: HTTPResponse.Status, path: String = "", _ message: String) {
        self.status = status
        self.message = message
        self.path = path
    }

    /// A mesh error as the command line words it (`path: message`). Mesh data that is wrong is 422;
    /// a request over a resource limit (steps, triangle budget) is 413 with the same body.
    init(_ error: MeshError) {
        let status: HTTPResponse.Status = error.kind == .limitExceeded ? .contentTooLarge : .unprocessableContent
        self.init(status, path: error.path, error.description)
    }

    var headers: HTTPFields { [.contentType: "application/json"] }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The JSON body.
    var body: [UInt8] {
        Array("{\"error\":\(JSONText.string(message)),\"path\":\(JSONText.string(path))}\n".utf8)
    }
}
