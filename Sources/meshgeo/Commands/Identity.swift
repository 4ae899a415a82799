import ArgumentParser
import SurfaceKit

struct Identity: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write an identity mesh of rows × columns faces (it leaves the layer unchanged).")

    @Option(parsing: .unconditional, help: "Rows of faces.")
    var rows: Int
    @Option(parsing: .unconditional, help: "Columns of faces.")
    var columns: Int
    @Option(name: .customLong("depth-normalization"), help: "none, width, height, min, max or average.")
    var depthNormalization: DepthNormalization = .none
    @Option(parsing: .unconditional, help: "The subdivisionSteps to record: a number from 0, or 'auto' (or -1).")
    var steps: StepsArgument?
    @OptionGroup var output: OutputOption

    func validate() throws {
        guard rows >= 1, columns >= 1 else { throw ValidationError("--rows and --columns must be at least 1.") }
        guard rows.multipliedReportingOverflow(by: columns).partialValue <= 4_000_000,
            !rows.multipliedReportingOverflow(by: columns).overflow
        else { throw ValidationError("--rows × --columns must be at most 4,000,000 faces.") }
    }

    func run() throws {
        try reportingFailures {
            let mesh = try MeshTransform.identity(
                rows: rows, columns: columns, depthNormalization: depthNormalization,
                subdivisionSteps: steps?.value ?? .automatic)
            try MeshJSONOutput.write(
                MeshDocument(mesh: mesh), to: output.output, cause: .usage, blame: "--rows \(rows) --columns \(columns)")
        }
    }
}
