import ArgumentParser
import SurfaceKit

struct Fit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move the control points so that the smooth surface passes through the mesh's vertices.",
        discussion: """
            The result has the same faces, weights and settings; its vertices are new control points \
            whose limit surface (at every number of steps from 1) passes through the input's vertices, \
            both from and to. Meshes that have no such control points, such as a closed cube, are \
            reported as a singular system (exit 65). See Docs/fitting.md.
            """)

    @OptionGroup var input: InputArgument
    @OptionGroup var output: OutputOption

    func run() throws {
        let name = InputFile.displayName(input.input)
        try reportingFailures(file: name) {
            let progress = ProgressLine("meshgeo fit")
            defer { progress.finish() }
            var document = try InputFile.document(input.input)
            progress.stage("solving")
            document.mesh = try document.mesh.fitted()
            progress.stage("writing")
            try MeshJSONOutput.write(document, to: output.output, blame: "the fitted control points")
        }
    }
}
