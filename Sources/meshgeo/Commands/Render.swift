import ArgumentParser
import MeshRender
import MeshTessellate
import SurfaceKit

/// `meshgeo render`: a picture of the mesh transform, as SVG (the sorted, lit triangles) or as PNG
/// (the layer's content mapped through the mesh). See Docs/rendering.md.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a mesh transform: an SVG of its lit, sorted triangles or a PNG of its content mapped through it.",
        discussion: """
            The picture covers the layer's untransformed bounds at --scale pixels per point (by \
            default 512 pixels on the longer side for a layer smaller than that, else 1 pixel per \
            point). SVG: one \
            flat-shaded polygon per triangle in exact back-to-front order (--sort exact unless given). \
            PNG: the texture (a checkerboard when none is given) stretched over the layer and mapped \
            through the mesh, perspective-correct, anti-aliased, lit, transparent outside the mesh, \
            composited back to front (--sort depth unless given). The format follows the -o file's \
            extension, or --format.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case svg, png
    }

    @OptionGroup var input: InputArgument
    @OptionGroup var output: OutputOption

    @Option(help: "svg or png; by default the -o file's extension decides (standard output: svg).")
    var format: Format?

    @Option(
        help: ArgumentHelp("PNG only: the layer's content, a PNG or JPEG file stretched over the layer's bounds.", valueName: "image.png"),
        completion: .file(extensions: ["png", "jpg", "jpeg"]))
    var texture: String?

    @Option(
        parsing: .unconditional,
        help:
            "Pixels per point: the picture is the layer's size times this (default: 512 pixels on the longer side, or 1 for a layer of 512 points or more)."
    )
    var scale: Double?

    @Option(parsing: .unconditional, help: "Direction toward the light 'x,y,z' in screen space (overrides the file's layer.light).")
    var light: LightDirection?

    @Option(parsing: .unconditional, help: "Diffuse factor k of the lighting (1 − k) + k·|n·l| (overrides the file's).")
    var diffuse: Double?

    @Option(parsing: .unconditional, help: "The layer's opacity, 0 to 1; below 1 the draw order shows.")
    var opacity: Double = 1

    @Option(help: "Draw order: none, depth or exact (bsp is an older name for exact). Default: exact for SVG, depth for PNG.")
    var sort: PainterSorter.Mode?

    @Flag(help: "SVG only: outline every triangle.")
    var wireframe = false

    @Flag(help: "PNG only: compress about twice as fast into a file about 45% larger (zlib level 3 instead of 6).")
    var fast = false

    @OptionGroup var tessellation: TessellationArguments

    func validate() throws {
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a finite number greater than 0.") }
        guard opacity.isFinite, opacity >= 0, opacity <= 1 else { throw ValidationError("--opacity must be between 0 and 1.") }
        if let diffuse, !diffuse.isFinite { throw ValidationError("--diffuse must be a finite number.") }
        let format = try resolvedFormat()
        if format == .svg, texture != nil { throw ValidationError("--texture applies to PNG output only.") }
        if format == .png, wireframe { throw ValidationError("--wireframe applies to SVG output only.") }
        if format == .svg, fast { throw ValidationError("--fast applies to PNG output only.") }
        guard !(texture == "-" && input.input == "-") else { throw ValidationError("Only one input can be standard input.") }
    }

    /// --format, else the output file's extension, else SVG on standard output. A --format that
    /// contradicts the extension (.svg or .png) is refused.
    func resolvedFormat() throws -> Format {
        let named = OutputExtension.of(output.output).flatMap(Format.init(rawValue:))
        if let format {
            if let named, named != format, let path = output.output {
                throw ValidationError(
                    "--format \(format.rawValue) does not match the -o file '\(path)', whose extension says \(named.rawValue).")
            }
            return format
        }
        if let named { return named }
        guard let path = output.output, path != "-" else { return .svg }
        throw ValidationError("Cannot tell the format from '\(path)': name it .svg or .png, or pass --format.")
    }

    /// Pixels per point when --scale is not given: a layer whose longer side is under
    /// ``defaultLongerSide`` points is drawn that many pixels on its longer side, a larger one at
    /// one pixel per point (as before the default was chosen from the size).
    static func defaultScale(layerSize size: SIMD2<Double>) -> Double {
        let longer = max(size.x, size.y)
        guard longer.isFinite, longer > 0, longer < defaultLongerSide else { return 1 }
        return defaultLongerSide / longer
    }

    /// 512 pixels: a picture that is clear on any screen and quick to draw (a unit layer, such
    /// as the bundled examples', is otherwise one pixel).
    static let defaultLongerSide = 512.0

    func run() throws {
        let name = InputFile.displayName(input.input)
        try reportingFailures(file: name) {
            let document = try InputFile.document(input.input)
            tessellation.warnIgnoredOptions(fileSteps: document.mesh.subdivisionSteps)
            var fileLight = document.layer.light
            if let light { fileLight.direction = light.value }
            if let diffuse { fileLight.diffuse = diffuse }
            let options = RenderOptions(
                scale: scale ?? Render.defaultScale(layerSize: document.layer.size),
                light: light != nil || diffuse != nil ? fileLight : nil, opacity: opacity, sort: sort,
                wireframe: wireframe, tessellation: tessellation.options)
            switch try resolvedFormat() {
            case .svg:
                try OutputFile.write(try MeshRenderer.svgData(of: document, options: options), to: output.output)
            case .png:
                let content = try texture.map(Render.readTexture)
                let bytes: [UInt8]
                do {
                    bytes = try MeshRenderer.image(of: document, texture: content, options: options).pngData(fast: fast)
                } catch let error as ImageError {
                    throw Failure(.ioError, file: output.output ?? "<stdout>", "cannot make the PNG: \(error.message)")
                }
                try OutputFile.write(bytes, to: output.output)
            }
        }
    }

    /// Reads a texture: a missing or unreadable file is exit 66, bytes that are not a PNG or JPEG
    /// image exit 65.
    static func readTexture(_ path: String) throws -> RGBAImage {
        let bytes = try InputFile.read(path)
        do {
            return try RGBAImage(imageBytes: bytes)
        } catch {
            throw Failure(.dataError, file: InputFile.displayName(path), error.message)
        }
    }
}

/// `--light x,y,z`: three finite numbers, not all zero.
struct LightDirection: ExpressibleByArgument {
    var value: Point3D

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [Double] = []
        for part in parts {
            guard let n = Double(String(part.filter { $0 != " " })), n.isFinite else { return nil }
            numbers.append(n)
        }
        value = Point3D(numbers[0], numbers[1], numbers[2])
        guard value != .zero else { return nil }
    }
}
