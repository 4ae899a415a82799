import Foundation
import Testing

// Every `meshgeo …` command line in README.md's shell blocks runs as written from the package
// root and succeeds without a warning or an error message: the files it names exist
// (Examples/), its options parse.
// Outputs go to a scratch directory in which Examples/ is a link to the package's.

@Suite struct ReadmeCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Subcommands left out, with the reason: `bench` measures throughput for minutes and
    /// checks nothing about the README's files; `serve` runs until it is stopped (its own tests
    /// start and stop it).
    static let skipped: Set<String> = ["bench", "serve"]

    /// The README's `meshgeo` command lines: the lines of ```sh blocks that start with
    /// `meshgeo `, without a trailing `# comment`, split at spaces (the README quotes nothing),
    /// and without a `> file` redirection (its output is only discarded here).
    static func commandLines(of readme: String) -> [[String]] {
        var inShell = false
        var commands: [[String]] = []
        for raw in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") {
                inShell = !inShell && line == "```sh"
                continue
            }
            guard inShell, line.hasPrefix("meshgeo ") else { continue }
            let code = line.components(separatedBy: " #").first ?? line
            var words = code.split(separator: " ").map(String.init)
            if let redirect = words.firstIndex(of: ">") { words.removeSubrange(redirect...) }
            commands.append(Array(words.dropFirst()))
        }
        return commands
    }

    @Test func readmeCommandsRunAsWritten() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let commands = Self.commandLines(of: readme)
        // The tour has more than a dozen; an empty list would mean the parsing broke.
        #expect(commands.count >= 12)
        let dir = try CLIWorkspace()
        try FileManager.default.createSymbolicLink(
            at: dir.url.appendingPathComponent("Examples"), withDestinationURL: Self.root.appendingPathComponent("Examples"))
        for arguments in commands where !Self.skipped.contains(arguments.first ?? "") {
            let result = try dir.run(arguments)
            let shown = (["meshgeo"] + arguments).joined(separator: " ")
            #expect(result.status == 0, "\(shown): exit \(result.status): \(result.err)")
            // No warning (an option of the README that does nothing) and no error; `--verbose`
            // reports on standard error by design.
            #expect(!result.err.contains("meshgeo: "), "\(shown) wrote to standard error: \(result.err)")
            // Every -o file was written and is not empty.
            if let o = arguments.firstIndex(of: "-o"), o + 1 < arguments.count {
                #expect(((try? dir.read(arguments[o + 1]))?.count ?? 0) > 0, "\(shown): no \(arguments[o + 1])")
            }
        }
    }
}
