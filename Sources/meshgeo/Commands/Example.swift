import ArgumentParser
import SurfaceKit

struct Example: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a bundled example mesh: \(ExampleMesh.allCases.map(\.rawValue).joined(separator: ", ")).")

    @Argument(help: "The example's name; omit with --list.")
    var name: ExampleMesh?
    @Flag(help: "List the examples.")
    var list = false
    @OptionGroup var output: OutputOption

    func validate() throws {
        guard list || name != nil else { throw ValidationError("Name an example, or use --list.") }
    }

    func run() throws {
        try reportingFailures {
            if list || name == nil {
                let text = ExampleMesh.allCases.map { "\($0.rawValue)\t\($0.summary)" }.joined(separator: "\n") + "\n"
                try StandardOutput.write(Array(text.utf8))
            } else if let name {
                try MeshJSONOutput.write(name.document, to: output.output, blame: "example \(name.rawValue)")
            }
        }
    }
}
