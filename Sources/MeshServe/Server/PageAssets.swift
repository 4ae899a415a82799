import Hummingbird

/// The page's files, compiled into the binary from `Page/` (no network, no resource bundle).
enum PageAssets {
    static let files: [String: (bytes: [UInt8], type: String)] = [
        "index.html": (PackageResources.index_html, "text/html; charset=utf-8"),
        "viewer.js": (PackageResources.viewer_js, "text/javascript; charset=utf-8"),
        "renderer.js": (PackageResources.renderer_js, "text/javascript; charset=utf-8"),
        "shading.js": (PackageResources.shading_js, "text/javascript; charset=utf-8"),
    ]

    static func has(_ name: String) -> Bool { files[name] != nil }

    static func response(for name: String) -> Response {
        guard let file = files[name] else { return Response(status: .notFound) }
        return Response(
            status: .ok, headers: [.contentType: file.type, .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
