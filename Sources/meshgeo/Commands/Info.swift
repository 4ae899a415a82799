import ArgumentParser
import MeshTessellate
import SurfaceKit

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Describe a mesh: counts, vertex kinds, bounds, and the steps automatic mode would use.")

    @OptionGroup var input: InputArgument

    func run() throws {
        let name = InputFile.displayName(input.input)
        try reportingFailures(file: name) {
            let document = try InputFile.document(input.input)
            let report = try MeshReport(document: document)
            try StandardOutput.write(Array(report.text.utf8))
        }
    }
}
