import ArgumentParser
import SurfaceKit

struct Interpolate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Blend two compatible meshes: from, to and weights a fraction of the way from the first to the second.",
        discussion:
            "The layer and steps are the first file's. Meshes are compatible when their vertex and face counts, faces' indices and depth normalization agree."
    )

    @Argument(help: "The mesh at fraction 0.")
    var first: String
    @Argument(help: "The mesh at fraction 1.")
    var second: String
    @Option(parsing: .unconditional, help: "How far from the first mesh to the second (0…1; other values extrapolate).")
    var fraction: Double
    @OptionGroup var output: OutputOption

    func validate() throws {
        guard fraction.isFinite else { throw ValidationError("--fraction must be a finite number.") }
        guard !(first == "-" && second == "-") else { throw ValidationError("Only one input can be standard input.") }
    }

    func run() throws {
        try reportingFailures {
            let a = try InputFile.document(first)
            let b = try InputFile.document(second)
            let mesh: MeshTransform
            do {
                mesh = try a.mesh.interpolated(to: b.mesh, fraction: fraction)
            } catch let error as MeshError where error.kind == .incompatible {
                throw Failure(error, file: InputFile.displayName(second))
            } catch let error as MeshError {
                // Both inputs were read and checked: a value the blend cannot make is the fraction's.
                throw Failure(.dataError, "--fraction \(fraction): the blend is not a valid mesh: \(error.description)")
            }
            try MeshJSONOutput.write(
                MeshDocument(mesh: mesh, layer: a.layer), to: output.output, blame: "--fraction \(fraction): the blend")
        }
    }
}
