import ArgumentParser
import MeshTessellate
import SurfaceKit

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Describe a mesh: counts, vertex kinds, bounds, and what tessellation makes (for automatic steps: the rates chosen and the deviation measured)."
    )

    @OptionGroup var input: InputArgument
    @OptionGroup var tessellation: TessellationArguments

    func run() throws {
        let name = InputFile.displayName(input.input)
        try reportingFailures(file: name) {
            let document = try InputFile.document(input.input)
            tessellation.warnIgnoredOptions(fileSteps: document.mesh.subdivisionSteps)
            let report = try MeshReport(document: document, options: tessellation.options)
            try StandardOutput.write(Array(report.text.utf8))
        }
    }
}
