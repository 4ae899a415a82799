import ArgumentParser
import Foundation

@main
struct MeshGeo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "meshgeo",
        abstract: "Tessellate, inspect and build mesh transforms: layers mapped onto smooth 3D surfaces.",
        discussion: """
            Meshes are mesh.json files (see Docs/mesh-json.md). Use '-' to read standard input. \
            Results go to standard output unless -o names a file, which is written atomically.
            Exit codes: 0 success, 64 bad usage, 65 invalid mesh data, 66 input cannot be read, \
            73 or 74 output cannot be written.
            """,
        version: MeshGeoVersion.string,
        subcommands: [
            Tessellate.self, Sort.self, Hit.self, Fit.self, Validate.self, Info.self, Identity.self, Example.self,
            Interpolate.self, Render.self, Bench.self, Export.self, Serve.self,
        ]
    )

    /// Parses and runs the command, reporting a usage error as one `meshgeo: error:` line (exit
    /// 64) instead of swift-argument-parser's message and usage block.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = UsageErrors.unknownSubcommand(arguments, known: subcommandNames) {
            UsageErrors.exit(unknown)
        }
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            UsageErrors.exit(error, subcommand: arguments.first.flatMap { subcommandNames.contains($0) ? $0 : nil })
        }
        do {
            try command.run()
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch {
            UsageErrors.exit(error, subcommand: nil)
        }
    }

    /// The subcommands' names, and `help` (swift-argument-parser's `meshgeo help NAME`).
    static var subcommandNames: [String] {
        configuration.subcommands.map { $0._commandName } + ["help"]
    }
}
