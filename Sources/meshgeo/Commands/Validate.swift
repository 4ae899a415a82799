import ArgumentParser
import SurfaceKit

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a mesh.json file: print 'ok', or the first error with its JSON path (exit 65).")

    @OptionGroup var input: InputArgument

    func run() throws {
        try reportingFailures(file: InputFile.displayName(input.input)) {
            _ = try InputFile.document(input.input)
            try StandardOutput.write(Array("ok\n".utf8))
        }
    }
}
