import Foundation
import Testing

// Tests of `meshgeo render` (Docs/rendering.md, Docs/command-line.md), run as a separate process with the shared runner in
// Support/CLISupport.swift.

@Suite struct RenderCLITests {
    /// A flat 2 × 1-face identity mesh on a 100 × 50-point layer, tessellated as its control mesh.
    static let flatMesh = """
        {"vertices": [
          {"from": [0, 0], "to": [0, 0, 0]}, {"from": [0.5, 0], "to": [0.5, 0, 0]}, {"from": [1, 0], "to": [1, 0, 0]},
          {"from": [0, 1], "to": [0, 1, 0]}, {"from": [0.5, 1], "to": [0.5, 1, 0]}, {"from": [1, 1], "to": [1, 1, 0]}],
         "faces": [{"indices": [0, 1, 4, 3]}, {"indices": [1, 2, 5, 4]}],
         "subdivisionSteps": 0,
         "layer": {"size": [100, 50]}}
        """

    static func polygons(_ svg: String) -> [Substring] {
        svg.split(separator: "\n").filter { $0.hasPrefix("<polygon ") }
    }

    @Test func svgHasOneLitPolygonPerTriangleSizedToTheLayer() throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", Self.flatMesh)
        let result = try dir.run(["render", "mesh.json", "-o", "out.svg", "--scale", "2"])
        #expect(result.status == 0, "\(result.err)")
        let svg = String(decoding: try dir.read("out.svg"), as: UTF8.self)
        #expect(svg.contains("width=\"200\" height=\"100\""))
        let shapes = Self.polygons(svg)
        #expect(shapes.count == 4)
        // Facing the default light (0, 0, 1): full intensity, the base colour itself.
        #expect(shapes.allSatisfy { $0.contains("fill=\"#d6e0ee\"") })
        // The first triangle of face 0 along the diagonal 0–2 (both diagonals are equally long):
        // corners (0,0), (50,0), (50,50) in points, twice that in pixels.
        #expect(shapes.contains { $0.contains("points=\"0,0 100,0 100,100\"") })

        // Light along +y is edge-on to the flat layer: intensity 1 − k = 0 with k = 1, and 1 with k = 0.
        let dark = try dir.run(["render", "mesh.json", "--light", "0,1,0"])
        #expect(dark.status == 0)
        #expect(Self.polygons(dark.out).allSatisfy { $0.contains("fill=\"#000000\"") })
        let ambient = try dir.run(["render", "mesh.json", "--light", "0,1,0", "--diffuse", "0"])
        #expect(Self.polygons(ambient.out).allSatisfy { $0.contains("fill=\"#d6e0ee\"") })
        let half = try dir.run(["render", "mesh.json", "--light", "0,1,0", "--diffuse", "0.5"])
        // 0.5 × (214, 224, 238) = (107, 112, 119).
        #expect(Self.polygons(half.out).allSatisfy { $0.contains("fill=\"#6b7077\"") })
    }

    @Test func svgDrawsTheExactOrderWithItsSplitPieces() throws {
        // Two quads crossing in an X seen from above: no order of the four triangles is right, so
        // the exact sort must split them, and the SVG shows exactly the pieces `sort` writes.
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", SortCLITests.crossingFaces)
        let svg = try dir.run(["render", "mesh.json", "-o", "out.svg"])
        #expect(svg.status == 0, "\(svg.err)")
        let shapes = Self.polygons(String(decoding: try dir.read("out.svg"), as: UTF8.self))
        let sorted = try dir.run(["sort", "mesh.json"])
        let pieces = sorted.lines.filter { $0.hasPrefix("f ") }.count
        #expect(pieces > 4)
        #expect(shapes.count == pieces)
        // With --sort depth nothing is split: the four triangles of the two quads.
        let depth = try dir.run(["render", "mesh.json", "--sort", "depth"])
        #expect(Self.polygons(depth.out).count == 4)
    }

    @Test func svgWireframeAndOpacity() throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", Self.flatMesh)
        let result = try dir.run(["render", "mesh.json", "--wireframe", "--opacity", "0.5", "--format", "svg"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("fill-opacity=\"0.5\""))
        #expect(result.out.contains("stroke=\"#1d2430\""))
    }

    @Test func pngIsTheLayerSizeTimesTheScaleAndIdentityReproducesItsTexture() throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", Self.flatMesh)
        let first = try dir.run(["render", "mesh.json", "-o", "a.png", "--scale", "1.5"])
        #expect(first.status == 0, "\(first.err)")
        let png = try dir.read("a.png")
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        func word(_ offset: Int) -> Int { png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(word(16) == 150 && word(20) == 75)
        // The identity mesh maps its texture onto itself, pixel for pixel, so the same encoder
        // writes the same bytes.
        let second = try dir.run(["render", "mesh.json", "-o", "b.png", "--scale", "1.5", "--texture", "a.png", "--fast"])
        #expect(second.status == 0, "\(second.err)")
        // b.png was compressed the fast way: rendering it through the identity once more and
        // writing with the default compression gives a.png's bytes again.
        let third = try dir.run(["render", "mesh.json", "-o", "c.png", "--scale", "1.5", "--texture", "b.png"])
        #expect(third.status == 0, "\(third.err)")
        #expect(try dir.read("c.png") == png)
    }

    @Test func renderReportsBadInputWithExitCodesAndLeavesNoFile() throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", Self.flatMesh)
        try dir.write("notes.png", "not a picture")
        let missing = try dir.run(["render", "mesh.json", "-o", "out.png", "--texture", "missing.png"])
        #expect(missing.status == 66)
        #expect(missing.errLines.count == 1 && missing.err.hasPrefix("meshgeo: error: missing.png:"))
        let garbage = try dir.run(["render", "mesh.json", "-o", "out.png", "--texture", "notes.png"])
        #expect(garbage.status == 65)
        #expect(garbage.errLines.count == 1 && garbage.err.hasPrefix("meshgeo: error: notes.png:"))
        let truncated = try dir.run(["render", "mesh.json", "-o", "whole.png"])
        #expect(truncated.status == 0)
        try dir.write("half.png", try dir.read("whole.png").prefix(60))
        #expect(try dir.run(["render", "mesh.json", "-o", "out.png", "--texture", "half.png"]).status == 65)
        let unwritable = try dir.run(["render", "mesh.json", "-o", "no-such-dir/out.png"])
        #expect(unwritable.status == 73)
        #expect(unwritable.errLines.count == 1)
        #expect(try dir.run(["render", "mesh.json", "-o", "out.gif"]).status == 64)
        #expect(try dir.run(["render", "mesh.json", "-o", "out.png", "--wireframe"]).status == 64)
        #expect(try dir.run(["render", "mesh.json", "-o", "out.svg", "--fast"]).status == 64)
        #expect(try dir.run(["render", "mesh.json", "-o", "out.svg", "--texture", "notes.png"]).status == 64)
        #expect(try dir.run(["render", "mesh.json", "--opacity", "2"]).status == 64)
        #expect(try dir.run(["render", "mesh.json", "--scale", "0"]).status == 64)
        #expect(try dir.run(["render", "mesh.json", "--light", "0,0,0"]).status == 64)
        #expect(try dir.run(["render", "mesh.json", "-o", "out.png", "--scale", "1000"]).status == 65)
        try dir.write("bad.json", "{\"vertices\": [")
        #expect(try dir.run(["render", "bad.json", "-o", "out.svg"]).status == 65)
        try dir.write(
            "dark.json",
            Self.flatMesh.replacingOccurrences(
                of: "\"size\": [100, 50]", with: "\"size\": [100, 50], \"light\": {\"direction\": [0, 0, 0]}"))
        let zeroLight = try dir.run(["render", "dark.json"])
        #expect(zeroLight.status == 65)
        #expect(zeroLight.err.contains("layer.light.direction"))
        #expect(try dir.listing() == ["bad.json", "dark.json", "half.png", "mesh.json", "notes.png", "whole.png"])
    }
}
