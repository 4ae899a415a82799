import Foundation
import Testing

// First tries at the command line: the default render scale, negative option values, the format
// from the -o extension, warnings for ignored options, JPEG textures in render, --version and
// one-line usage errors. Run as a separate process with the shared runner in Support/.

@Suite struct FirstTryCLITests {
    /// A flat 1 × 1-face identity mesh at fixed steps 0 on a layer of `width` × `height` points.
    static func flatMesh(width: Double, height: Double, steps: Int = 0) -> String {
        """
        {"vertices": [{"from": [0, 0], "to": [0, 0, 0]}, {"from": [1, 0], "to": [1, 0, 0]},
          {"from": [1, 1], "to": [1, 1, 0]}, {"from": [0, 1], "to": [0, 1, 0]}],
         "faces": [{"indices": [0, 1, 2, 3]}], "subdivisionSteps": \(steps),
         "layer": {"size": [\(width), \(height)]}}
        """
    }

    /// A PNG's width and height from its IHDR chunk (big-endian words at bytes 16 and 20).
    static func pngSize(_ png: Data) -> (Int, Int) {
        func word(_ offset: Int) -> Int { png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    /// The package root, for the files in Examples/.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    // MARK: The default scale

    /// Without --scale a layer smaller than 512 points is drawn 512 pixels on its longer side
    /// (the scale is 512 / longer side); a layer of 512 points or more keeps 1 pixel a point; an
    /// explicit --scale is obeyed as before.
    @Test(
        arguments: [
            (1.0, 1.0, nil, 512, 512), (100.0, 50.0, nil, 512, 256), (40.0, 80.0, nil, 256, 512),
            (600.0, 300.0, nil, 600, 300), (512.0, 100.0, nil, 512, 100), (1.0, 1.0, "2", 2, 2), (100.0, 50.0, "1", 100, 50),
        ] as [(Double, Double, String?, Int, Int)])
    func defaultScaleGivesAVisiblePicture(width: Double, height: Double, scale: String?, pixelsWide: Int, pixelsHigh: Int) throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", Self.flatMesh(width: width, height: height))
        let scaleArguments = scale.map { ["--scale", $0] } ?? []
        let png = try dir.run(["render", "mesh.json", "-o", "out.png"] + scaleArguments)
        #expect(png.status == 0, "\(png.err)")
        let size = Self.pngSize(try dir.read("out.png"))
        #expect(size.0 == pixelsWide && size.1 == pixelsHigh)
        let svg = try dir.run(["render", "mesh.json", "--format", "svg"] + scaleArguments)
        #expect(svg.out.contains("width=\"\(pixelsWide)\" height=\"\(pixelsHigh)\""))
    }

    // MARK: Negative option values

    @Test func negativeNumbersAreValues() throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", Self.flatMesh(width: 100, height: 100, steps: 1))
        // --steps -1 is automatic, exactly as --steps auto.
        let minusOne = try dir.run(["tessellate", "mesh.json", "--steps", "-1"])
        let auto = try dir.run(["tessellate", "mesh.json", "--steps", "auto"])
        #expect(minusOne.status == 0 && auto.status == 0, "\(minusOne.err)")
        #expect(minusOne.stdout == auto.stdout && !auto.stdout.isEmpty)
        // A tolerance of −1 is read, and refused for what it is.
        let tolerance = try dir.run(["tessellate", "mesh.json", "--tolerance", "-1"])
        #expect(tolerance.status == 64)
        #expect(tolerance.errLines.count == 1)
        #expect(
            tolerance.err.hasPrefix("meshgeo: error: ") && tolerance.err.contains("--tolerance must be")
                && tolerance.err.contains("above 0"))
        let steps = try dir.run(["tessellate", "mesh.json", "--steps", "-2"])
        #expect(steps.status == 64 && steps.errLines.count == 1 && steps.err.contains("-2"))
        let rows = try dir.run(["identity", "--rows", "-3", "--columns", "2"])
        #expect(rows.status == 64 && rows.err.contains("at least 1"))
        #expect(try dir.run(["render", "mesh.json", "--scale", "-1"]).err.contains("greater than 0"))
        // A light from below-left, and a screen point left of the layer, are ordinary values.
        let lit = try dir.run(["render", "mesh.json", "--light", "-1,0,1", "--format", "svg"])
        #expect(lit.status == 0, "\(lit.err)")
        let hit = try dir.run(["hit", "mesh.json", "--at", "-5,-0.5"])
        #expect(hit.status == 0, "\(hit.err)")
        #expect(hit.out == "{\"x\":-5.0,\"y\":-0.5,\"hit\":false}\n")
        // interpolate --fraction -1 extrapolates: a + (−1)(b − a) = 2a − b.
        try dir.write(
            "b.json",
            Self.flatMesh(width: 100, height: 100, steps: 1).replacingOccurrences(of: "\"to\": [1, 1, 0]", with: "\"to\": [1, 1, 0.5]"))
        let back = try dir.run(["interpolate", "mesh.json", "b.json", "--fraction", "-1"])
        #expect(back.status == 0, "\(back.err)")
        #expect(back.out.contains("\"to\": [1, 1, -0.5]"))
    }

    // MARK: The format from the -o extension

    @Test func formatFollowsTheOutputExtension() throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", Self.flatMesh(width: 100, height: 100, steps: 1))
        try dir.write("picture.png", try Data(contentsOf: Self.root.appendingPathComponent("Examples/texture.png")))
        for (name, format) in [("x.glb", "glb"), ("x.ply", "ply"), ("x.obj", "obj"), ("X.GLB", "glb")] {
            #expect(try dir.run(["tessellate", "mesh.json", "-o", name]).status == 0)
            #expect(try dir.run(["tessellate", "mesh.json", "--format", format, "-o", "ref.bin"]).status == 0)
            #expect(try dir.read(name) == dir.read("ref.bin"), "\(name) is not \(format)")
        }
        #expect(try dir.read("x.glb").prefix(4) == Data("glTF".utf8))
        // No extension, or one of no format: OBJ as before.
        for name in ["plain", "plain.txt", "plain.json"] {
            #expect(try dir.run(["tessellate", "mesh.json", "-o", name]).status == 0)
            #expect(try dir.read(name) == dir.read("x.obj"))
        }
        // A texture goes into a .glb without --format glb.
        let textured = try dir.run(["tessellate", "mesh.json", "--texture", "picture.png", "-o", "t.glb"])
        #expect(textured.status == 0, "\(textured.err)")
        #expect(try dir.read("t.glb").count > dir.read("x.glb").count)
        #expect(try dir.run(["sort", "mesh.json", "-o", "s.glb"]).status == 0)
        #expect(try dir.read("s.glb").prefix(4) == Data("glTF".utf8))
        // Disagreements are refused in one line, before any file is written.
        let before = try dir.listing()
        for arguments in [
            ["tessellate", "mesh.json", "--format", "obj", "-o", "y.glb"], ["tessellate", "mesh.json", "-o", "y.gltf"],
            ["tessellate", "mesh.json", "-o", "y.png"], ["tessellate", "mesh.json", "--texture", "picture.png", "-o", "y.obj"],
            ["sort", "mesh.json", "--format", "ply", "-o", "y.obj"], ["render", "mesh.json", "--format", "svg", "-o", "y.png"],
        ] {
            let result = try dir.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errLines.count == 1 && result.err.hasPrefix("meshgeo: error: "), "\(arguments): \(result.err)")
        }
        let mismatch = try dir.run(["tessellate", "mesh.json", "--format", "obj", "-o", "y.glb"])
        #expect(mismatch.err.contains("--format obj") && mismatch.err.contains("y.glb"))
        #expect(try dir.listing() == before)
    }

    // MARK: Warnings

    /// --tolerance with fixed steps (from --steps or the file) is ignored, and says so in one
    /// line; the output is what it is without the option. With automatic steps it is used.
    @Test func ignoredOptionsAreWarnedAbout() throws {
        let dir = try CLIWorkspace()
        try dir.write("fixed.json", Self.flatMesh(width: 100, height: 100, steps: 1))
        let plain = try dir.run(["tessellate", "fixed.json"])
        #expect(plain.status == 0 && plain.stderr.isEmpty)
        for arguments in [["fixed.json", "--tolerance", "0.1"], ["fixed.json", "--steps", "2", "--tolerance", "0.1"]] {
            let warned = try dir.run(["tessellate"] + arguments)
            #expect(warned.status == 0)
            #expect(warned.errLines.count == 1)
            #expect(warned.err.hasPrefix("meshgeo: warning: --tolerance is ignored"))
        }
        #expect(try dir.run(["tessellate", "fixed.json", "--tolerance", "0.1"]).stdout == plain.stdout)
        let automatic = try dir.run(["tessellate", "fixed.json", "--steps", "auto", "--tolerance", "0.1"])
        #expect(automatic.status == 0 && automatic.stderr.isEmpty)
        let verbose = try dir.run(["tessellate", "fixed.json", "--verbose"])
        #expect(verbose.status == 0 && verbose.errLines.count == 1 && verbose.err.hasPrefix("meshgeo: warning: --verbose is ignored"))
        #expect(try dir.run(["hit", "fixed.json", "--at", "50,50", "--tolerance", "1"]).err.hasPrefix("meshgeo: warning:"))
    }

    // MARK: JPEG textures

    /// `render --texture` takes a JPEG as it takes a PNG (the decoded pixels are compared with
    /// the PNG's in MeshRenderTests): the picture is the texture's, not the default checkerboard.
    @Test func renderTakesJPEGTextures() throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", Self.flatMesh(width: 64, height: 64))
        for name in ["texture.png", "texture.jpg"] {
            try dir.write(name, try Data(contentsOf: Self.root.appendingPathComponent("Examples").appendingPathComponent(name)))
        }
        for (texture, output) in [("texture.png", "p.png"), ("texture.jpg", "j.png")] {
            let result = try dir.run(["render", "mesh.json", "--scale", "1", "--texture", texture, "-o", output])
            #expect(result.status == 0, "\(result.err)")
            #expect(result.stderr.isEmpty)
        }
        #expect(try dir.run(["render", "mesh.json", "--scale", "1", "-o", "c.png"]).status == 0)
        let png = try dir.read("p.png"), jpeg = try dir.read("j.png"), checker = try dir.read("c.png")
        #expect(Self.pngSize(jpeg) == (64, 64))
        #expect(png != jpeg && jpeg != checker)
        // A JPEG that is not one, and one cut short, are data errors in one line.
        try dir.write("fake.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("not really a jpeg".utf8))
        try dir.write("half.jpg", try dir.read("texture.jpg").prefix(600))
        for bad in ["fake.jpg", "half.jpg"] {
            let result = try dir.run(["render", "mesh.json", "--texture", bad, "-o", "bad.png"])
            #expect(result.status == 65, "\(bad): \(result.err)")
            #expect(result.errLines.count == 1 && result.err.hasPrefix("meshgeo: error: \(bad):"))
        }
        #expect(!dir.exists("bad.png"))
    }

    // MARK: --version and usage errors

    @Test func versionIsOneLine() throws {
        let dir = try CLIWorkspace()
        let result = try dir.run(["--version"])
        #expect(result.status == 0)
        #expect(result.lines.count == 1)
        #expect(result.out.split(separator: ".").count >= 3 && result.out.first?.isNumber == true)
    }

    @Test func usageErrorsAreOneLine() throws {
        let dir = try CLIWorkspace()
        try dir.write("mesh.json", Self.flatMesh(width: 1, height: 1))
        let typo = try dir.run(["tesselate", "mesh.json"])
        #expect(typo.status == 64)
        #expect(typo.errLines.count == 1)
        #expect(typo.err.hasPrefix("meshgeo: error: unknown subcommand 'tesselate'; did you mean 'tessellate'?"))
        #expect(try dir.run(["rendr", "mesh.json"]).err.contains("did you mean 'render'?"))
        let helpTypo = try dir.run(["help", "tesselate"])
        #expect(helpTypo.status == 64 && helpTypo.errLines.count == 1 && helpTypo.err.contains("did you mean 'tessellate'?"))
        #expect(try dir.run(["interp", "a", "b"]).err.contains("did you mean 'interpolate'?"))
        let unknown = try dir.run(["paint", "mesh.json"])
        #expect(unknown.status == 64 && unknown.errLines.count == 1 && !unknown.err.contains("did you mean"))
        for arguments in [
            ["tessellate"], ["tessellate", "mesh.json", "--bogus"], ["tessellate", "mesh.json", "--steps", "many"],
            ["identity", "--rows", "2"], ["render", "mesh.json", "--opacity", "2"], ["--bogus"],
        ] {
            let result = try dir.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errLines.count == 1 && result.err.hasPrefix("meshgeo: error: "), "\(arguments): \(result.err)")
            #expect(result.stdout.isEmpty)
        }
        let help = try dir.run(["--help"])
        #expect(help.status == 0 && help.out.contains("tessellate") && help.stderr.isEmpty)
        #expect(try dir.run(["tessellate", "--help"]).status == 0)
    }
}
