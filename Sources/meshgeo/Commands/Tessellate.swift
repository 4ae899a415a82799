import ArgumentParser
import MeshTessellate
import SurfaceKit

struct Tessellate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tessellate a mesh transform's surface into triangles and export them.",
        discussion: """
            Steps 0 draws the control mesh; steps n splits every face into 2^n × 2^n sub-quads whose \
            corners lie on the limit surface. Positions and normals are written in the chosen space; \
            texture coordinates are the layer points (from).
            """)

    @OptionGroup var input: InputArgument
    @OptionGroup var output: OutputOption

    @Option(help: "Subdivision steps: a number from 0, or 'auto'. Overrides the file's subdivisionSteps.")
    var steps: StepsArgument?

    @Option(help: "How quads become triangles: \(DiagonalPolicy.allCases.map(\.rawValue).joined(separator: ", ")).")
    var diagonal: DiagonalPolicy = .shortest

    @Option(help: "The space of the output positions and normals: unit, points or screen.")
    var space: CoordinateSpace = .unit

    @Option(help: "The output format.")
    var format: MeshFormat = .obj

    @Option(name: .customLong("max-triangles"), help: "Refuse, before any work, a tessellation with more triangles than this.")
    var maxTriangles: Int = TessellationOptions.defaultMaximumTriangles

    func validate() throws {
        guard maxTriangles >= 0 else { throw ValidationError("--max-triangles must not be negative.") }
    }

    func run() throws {
        let name = InputFile.displayName(input.input)
        try reportingFailures(file: name) {
            let document = try InputFile.document(input.input)
            let options = TessellationOptions(steps: steps?.value, diagonal: diagonal, maximumTriangles: maxTriangles)
            let mesh = try Tessellator.tessellate(document, options: options, space: space)
            switch format {
            case .obj:
                try OutputFile.write(chunks: mesh.objChunks(), to: output.output)
            }
        }
    }
}
