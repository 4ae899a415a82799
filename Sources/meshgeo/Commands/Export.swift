import ArgumentParser
import SurfaceKit

/// `meshgeo export`: the limit surface as rational B-spline surfaces in a CAD file (STEP or IGES).
/// See Docs/nurbs-export.md.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the smooth surface as NURBS surfaces that CAD tools read: STEP (AP214) or IGES 5.3.",
        discussion: """
            A mesh that is a rows × columns grid becomes one rational bicubic B-spline surface equal to \
            the limit surface; other meshes get surfaces per face, exact where the face is regular and \
            within --tolerance (points) next to extraordinary vertices. Lengths are layer points, written \
            with millimetres as the file's unit (1 point = 1 mm). The format follows the -o file's \
            extension (.stp, .step, .igs, .iges), or --format. A summary goes to standard error.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case step, iges
    }

    @OptionGroup var input: InputArgument
    @OptionGroup var output: OutputOption

    @Option(help: "step or iges; by default the -o file's extension decides.")
    var format: Format?

    @Option(
        help: "Largest distance in points between an approximated surface and the limit surface (default 0.001 × the larger layer side).")
    var tolerance: Double?

    func validate() throws {
        if let tolerance, !(tolerance.isFinite && tolerance > 0) {
            throw ValidationError("--tolerance must be a finite number of points above 0.")
        }
        _ = try resolvedFormat()
    }

    /// --format, else the output file's extension; a --format that contradicts the extension is
    /// refused, as `tessellate` and `render` do.
    func resolvedFormat() throws -> Format {
        let named: Format? =
            switch OutputExtension.of(output.output) {
            case "stp", "step": .step
            case "igs", "iges": .iges
            default: nil
            }
        if let format {
            if let named, named != format, let path = output.output {
                throw ValidationError(
                    "--format \(format.rawValue) does not match the -o file '\(path)', whose extension says \(named.rawValue).")
            }
            return format
        }
        guard let path = output.output, path != "-" else {
            throw ValidationError("Name the format with --format step|iges when writing to standard output.")
        }
        guard let named else {
            throw ValidationError("Cannot tell the format from '\(path)': name it .stp or .igs, or pass --format.")
        }
        return named
    }

    /// The model's name: the input file's name without folder and extension.
    static func modelName(_ path: String) -> String {
        guard path != "-" else { return "mesh" }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    func run() throws {
        let name = InputFile.displayName(input.input)
        try reportingFailures(file: name) {
            let document = try InputFile.document(input.input)
            let patches = try document.nurbsPatches(tolerance: tolerance)
            let format = try resolvedFormat()
            let fileName = output.output.flatMap { $0 == "-" ? nil : $0.split(separator: "/").last.map(String.init) }
            let info = CADFileInfo(
                name: Export.modelName(input.input),
                fileName: fileName ?? Export.modelName(input.input) + (format == .step ? ".stp" : ".igs"))
            let bytes = format == .step ? patches.stepFile(info) : patches.igesFile(info)
            try OutputFile.write(bytes, to: output.output)
            StandardError.write(Export.summary(patches))
            if patches.maximumDeviation > patches.tolerance {
                StandardError.write(
                    "meshgeo: warning: the largest deviation, \(patches.maximumDeviation) pt, is over the tolerance of "
                        + "\(patches.tolerance) pt: the refinement stopped at its deepest level")
            }
        }
    }

    static func summary(_ patches: NURBSPatches) -> String {
        switch patches.layout {
        case .grid(let rows, let columns, _):
            return "meshgeo export: one exact surface over the \(rows) × \(columns) grid"
        case .perFace:
            let approximated = patches.surfaces.filter { !$0.isExact }.count
            let count = patches.surfaces.count
            guard approximated > 0 else { return "meshgeo export: \(count) exact surfaces, one per face" }
            return "meshgeo export: \(count) surfaces, \(approximated) approximated next to extraordinary vertices; "
                + "largest deviation \(patches.maximumDeviation) pt (tolerance \(patches.tolerance) pt)"
        }
    }
}
