import ArgumentParser
import MeshTessellate
import SurfaceKit

struct Hit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hit-test screen points through a mesh transform: which layer point each one shows.",
        discussion: """
            Screen points are in points, in the frame of the layer's untransformed bounds (the layer \
            transform applied about the anchor, then the perspective divide). Each query prints one \
            JSON line: {"x":…,"y":…,"hit":true,"face":k,"from":[u,v],"to":[x,y,z],"depth":z} for the \
            frontmost surface there, or {"x":…,"y":…,"hit":false}. --points reads one 'x y' pair a \
            line (blank lines are skipped). --exact refines each hit on the limit surface itself.
            """)

    @OptionGroup var input: InputArgument
    @OptionGroup var output: OutputOption

    @Option(name: .customLong("at"), parsing: .unconditionalSingleValue, help: "A screen point 'x,y' (repeatable).")
    var at: [ScreenPoint] = []

    @Option(help: "A file of screen points, one 'x y' a line, or '-' for standard input.")
    var points: String?

    @Flag(help: "Refine hits on the limit surface (Newton on the patch) instead of the triangles.")
    var exact = false

    @OptionGroup var tessellation: TessellationArguments

    func validate() throws {
        guard !at.isEmpty || points != nil else { throw ValidationError("Give screen points with --at x,y or --points FILE.") }
        guard !(points == "-" && input.input == "-") else { throw ValidationError("Only one input can be standard input.") }
    }

    func run() throws {
        try reportingFailures(file: InputFile.displayName(input.input)) {
            var queries = at.map(\.point)
            if let points {
                queries += try Hit.readPoints(points)
            }
            let document = try InputFile.document(input.input)
            tessellation.warnIgnoredOptions(fileSteps: document.mesh.subdivisionSteps)
            let options = tessellation.options
            let tester = try HitTester(document: document, options: options, precision: exact ? .exact : .triangles)
            let hits = tester.hitTest(queries)
            var bytes: [UInt8] = []
            for (point, hit) in zip(queries, hits) {
                if let hit { try FiniteGuard.check(hit, at: point) }
                bytes += Array((ScreenHit.jsonObject(at: point, hit) + "\n").utf8)
            }
            try OutputFile.write(bytes, to: output.output)
        }
    }
}

extension Hit {
    /// `--at x,y`: two finite numbers.
    struct ScreenPoint: ExpressibleByArgument {
        var point: SIMD2<Double>

        init?(argument: String) {
            let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2,
                let x = Double(String(parts[0].filter { $0 != " " })),
                let y = Double(String(parts[1].filter { $0 != " " })),
                x.isFinite, y.isFinite
            else { return nil }
            point = SIMD2(x, y)
        }
    }

    /// Reads `x y` lines (see ``PointsFile``).
    static func readPoints(_ path: String) throws -> [SIMD2<Double>] {
        try PointsFile.read(path)
    }
}
