import ArgumentParser
import MeshTessellate
import SurfaceKit

extension DiagonalPolicy: ExpressibleByArgument {}
extension CoordinateSpace: ExpressibleByArgument {}
extension DepthNormalization: ExpressibleByArgument {}
extension ExampleMesh: ExpressibleByArgument {}
extension PainterSorter.Mode: ExpressibleByArgument {}

/// `--steps N` or `--steps auto` (also −1, as in mesh.json).
struct StepsArgument: ExpressibleByArgument {
    var value: SubdivisionSteps

    init?(argument: String) {
        if argument == "auto" || argument == "-1" {
            value = .automatic
        } else if let n = Int(argument), n >= 0, n <= SubdivisionSteps.largestRecorded {
            value = .fixed(n)
        } else {
            return nil
        }
    }

    static var defaultCompletionKind: CompletionKind { .list(["auto", "0", "1", "2", "3", "4"]) }
}

/// Output formats of `tessellate`.
enum MeshFormat: String, ExpressibleByArgument, CaseIterable {
    case obj
    case glb
    case ply
}

/// The input file argument shared by the commands that read one mesh.
struct InputArgument: ParsableArguments {
    @Argument(help: "The mesh.json file, or '-' to read standard input.")
    var input: String
}

/// `-o FILE`, written atomically; standard output when absent.
struct OutputOption: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: "Write the result to this file (atomically) instead of standard output.")
    var output: String?

    /// Refuses, before any work, an empty name (exit 64) and a destination that can never be
    /// written, such as a directory (exit 73); see ``OutputFile``.
    func validate() throws {
        do {
            _ = try OutputFile.destination(of: output)
        } catch let failure as Failure {
            StandardError.write(failure.line)
            throw ExitCode(failure.code.rawValue)
        }
    }
}

/// The tessellation options shared by `tessellate`, `sort` and `hit`.
struct TessellationArguments: ParsableArguments {
    @Option(parsing: .unconditional, help: "Subdivision steps: a number from 0, or 'auto' (or -1). Overrides the file's subdivisionSteps.")
    var steps: StepsArgument?

    @Option(help: "How quads become triangles: \(DiagonalPolicy.allCases.map(\.rawValue).joined(separator: ", ")).")
    var diagonal: DiagonalPolicy = .shortest

    @Option(name: .customLong("max-triangles"), parsing: .unconditional, help: "Refuse, before any work, to make more triangles than this.")
    var maxTriangles: Int = TessellationOptions.defaultMaximumTriangles

    @Option(
        parsing: .unconditional,
        help: "Automatic steps: the largest distance in points between triangles and surface (default 0.001 × the larger layer side).")
    var tolerance: Double?

    func validate() throws {
        guard maxTriangles >= 0 else { throw ValidationError("--max-triangles must not be negative.") }
        if let tolerance, !(tolerance.isFinite && tolerance > 0) {
            throw ValidationError("--tolerance must be a finite number of points above 0.")
        }
    }

    /// Warns when `--tolerance` cannot apply: the steps are fixed (by `--steps N` or by the
    /// file), and the tolerance only chooses automatic steps.
    func warnIgnoredOptions(fileSteps: SubdivisionSteps) {
        guard tolerance != nil else { return }
        switch steps?.value ?? fileSteps {
        case .fixed(let n):
            let source = steps == nil ? "the file's subdivisionSteps" : "--steps"
            Warning.write("--tolerance is ignored: \(source) fixes the steps at \(n) (it applies to automatic steps only)")
        case .automatic:
            break
        }
    }

    /// The library's options for these arguments.
    var options: TessellationOptions {
        TessellationOptions(steps: steps?.value, diagonal: diagonal, maximumTriangles: maxTriangles, tolerance: tolerance)
    }
}
