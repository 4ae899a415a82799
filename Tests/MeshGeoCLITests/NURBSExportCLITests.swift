import Foundation
import Testing

// `meshgeo export`: the format from --format or the -o extension, the files' framing, and the
// answers to meshes without a surface. The geometry itself is checked in SurfaceKitTests
// (NURBSExportTests against the limit surface, NURBSReaderTests through OpenCASCADE).

@Suite struct NURBSExportCLITests {
    static func grid(_ dir: CLIWorkspace) throws {
        let made = try dir.run(["identity", "--rows", "2", "--columns", "3", "-o", "grid.json"])
        #expect(made.status == 0, "\(made.err)")
    }

    @Test func stepFileFromTheExtensionNamesTheMeshAndItsUnits() throws {
        let dir = try CLIWorkspace()
        try Self.grid(dir)
        let result = try dir.run(["export", "grid.json", "-o", "grid.stp"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("one exact surface over the 2 × 3 grid"))
        let text = String(decoding: try dir.read("grid.stp"), as: UTF8.self)
        #expect(text.hasPrefix("ISO-10303-21;\nHEADER;\n") && text.hasSuffix("END-ISO-10303-21;\n"))
        #expect(text.contains("FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));"))
        #expect(text.contains("PRODUCT('grid','grid',"))
        #expect(text.contains("SI_UNIT(.MILLI.,.METRE.)"))
        #expect(text.contains("ADVANCED_FACE('grid',"))
        // One surface, 6 × 5 control points (columns + 3 by rows + 3), with its clamped knots.
        #expect(text.components(separatedBy: "RATIONAL_B_SPLINE_SURFACE(").count == 2)
        #expect(text.contains("B_SPLINE_SURFACE_WITH_KNOTS((4,1,1,4),(4,1,4),(0.0,1.0,2.0,3.0),(0.0,1.0,2.0),.UNSPECIFIED.)"))
        // Standard output with --format carries the same bytes.
        let piped = try dir.run(["export", "grid.json", "--format", "step"])
        let written = try dir.read("grid.stp")
        #expect(piped.status == 0 && piped.stdout == written)
    }

    @Test func aFormatThatContradictsTheExtensionIsRefusedBeforeWriting() throws {
        let dir = try CLIWorkspace()
        try Self.grid(dir)
        let result = try dir.run(["export", "grid.json", "--format", "step", "-o", "grid.igs"])
        #expect(result.status == 64, "\(result.err)")
        #expect(result.errLines.count == 1 && result.err.contains("does not match"), "\(result.err)")
        #expect((try? dir.read("grid.igs")) == nil)
        #expect(try dir.run(["export", "grid.json", "--format", "iges", "-o", "grid.igs"]).status == 0)
    }

    @Test func igesFileHasEightyColumnRecordsInSectionOrder() throws {
        let dir = try CLIWorkspace()
        try Self.grid(dir)
        let result = try dir.run(["export", "grid.json", "-o", "grid.IGES"])
        #expect(result.status == 0, "\(result.err)")
        let lines = String(decoding: try dir.read("grid.IGES"), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast()
        #expect(lines.allSatisfy { $0.count == 80 })
        let sections = lines.map { $0[$0.index($0.startIndex, offsetBy: 72)] }
        #expect(String(sections).range(of: #"^S+G+D+P+T$"#, options: .regularExpression) != nil, "\(String(sections))")
        // Sequence numbers count from 1 in each section.
        var counts: [Character: Int] = [:]
        for (line, section) in zip(lines, sections) {
            counts[section, default: 0] += 1
            #expect(Int(line.suffix(7).trimmingCharacters(in: .whitespaces)) == counts[section])
        }
        // One entity 128 (two directory lines), its parameters starting with the counts and degrees.
        #expect(counts["D"] == 2)
        let directory = try #require(lines.firstIndex { $0.dropFirst(72).hasPrefix("D") })
        #expect(lines[directory + 1].hasPrefix("     128       0       0      18       0                    GRID       0D"))
        let firstParameters = try #require(lines.first { $0.dropFirst(72).hasPrefix("P") })
        #expect(firstParameters.hasPrefix("128,5,4,3,3,0,0,0,0,0,"))
        let global = lines.filter { $0.dropFirst(72).hasPrefix("G") }.map { $0.prefix(72) }.joined()
        #expect(global.hasPrefix("1H,,1H;,4Hgrid,9Hgrid.IGES,") && global.contains(",2,2HMM,"))
    }

    @Test func formatMustBeKnown() throws {
        let dir = try CLIWorkspace()
        try Self.grid(dir)
        let toStdout = try dir.run(["export", "grid.json"])
        #expect(toStdout.status == 64 && toStdout.err.contains("--format"))
        let unknown = try dir.run(["export", "grid.json", "-o", "grid.obj"])
        #expect(unknown.status == 64 && unknown.err.contains(".stp or .igs"))
        #expect(!dir.exists("grid.obj"))
    }

    @Test func meshWithoutFacesIsDataError() throws {
        let dir = try CLIWorkspace()
        try dir.write("empty.json", #"{"vertices": [{"from": [0, 0], "to": [0, 0, 0]}], "faces": []}"#)
        let result = try dir.run(["export", "empty.json", "-o", "empty.stp"])
        #expect(result.status == 65)
        #expect(result.err == "meshgeo: error: empty.json: faces: the mesh has no faces, so there is no surface to export\n")
        #expect(!dir.exists("empty.stp"))
    }

    @Test func nonManifoldVertexIsInterpolatedAndApproximatedAround() throws {
        // Two faces meeting at one vertex only: the vertex is pinned (interpolated) and the faces
        // at it are approximated within the tolerance, which the summary reports.
        let dir = try CLIWorkspace()
        try dir.write(
            "bowtie.json",
            #"""
            {"vertices": [
              {"from": [0, 0], "to": [0, 0, 0]}, {"from": [0.5, 0], "to": [0.5, 0, 0.1]},
              {"from": [0.5, 0.5], "to": [0.5, 0.5, 0]}, {"from": [0, 0.5], "to": [0, 0.5, 0]},
              {"from": [1, 0.5], "to": [1, 0.5, 0]}, {"from": [1, 1], "to": [1, 1, 0.2]},
              {"from": [0.5, 1], "to": [0.5, 1, 0]}],
             "faces": [{"indices": [0, 1, 2, 3]}, {"indices": [2, 4, 5, 6]}],
             "layer": {"size": [100, 100]}}
            """#)
        let result = try dir.run(["export", "bowtie.json", "-o", "bowtie.igs"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("approximated next to extraordinary vertices") && result.err.contains("(tolerance 0.1 pt)"))
    }
}
