import Foundation
import Testing

/// `layer.lights` through the command line: bad lights are exit 65 naming the JSON path from every
/// command that reads a mesh, `info` lists the lights, and a glb's lights are found by an
/// independent glTF reader (pygltflib, installed by scripts/setup.sh) where the file says.
@Suite struct LightsCLITests {
    static func quad(layer: String) -> String {
        CLIFixtures.quad(extra: ",\n  \"layer\": " + layer)
    }

    static let spot = #"{"type": "spot", "position": [0, 0, 1], "direction": [0, 0, -1], "#

    @Test(arguments: [
        (#"{"light": {"diffuse": 1}, "lights": []}"#, "layer.lights", "'layer.light' and 'layer.lights'"),
        (#"{"lights": [{"type": "lamp"}]}"#, "layer.lights[0].type", "unknown light type 'lamp'"),
        (#"{"lights": [{"type": "ambient", "colour": [1, 1, 1]}]}"#, "layer.lights[0].colour", "did you mean 'color'"),
        (
            #"{"lights": [\#(spot)"outerAngle": 30}]}"#.replacingOccurrences(of: #""direction": [0, 0, -1], "#, with: ""),
            "layer.lights[0].direction", "missing"
        ),
        (#"{"lights": [{"type": "directional", "intensity": -1}]}"#, "layer.lights[0].intensity", "≥ 0"),
        (#"{"lights": [\#(spot)"innerAngle": 50, "outerAngle": 30}]}"#, "layer.lights[0].innerAngle", "greater than outerAngle"),
        (#"{"lights": [\#(spot)"outerAngle": 120}]}"#, "layer.lights[0].outerAngle", "at most 90"),
        (#"{"lights": [{"type": "directional", "direction": [0, 0, 0]}]}"#, "layer.lights[0].direction", "no length"),
        (#"{"material": {"shininess": -1}}"#, "layer.material.shininess", "≥ 0"),
    ])
    func badLightsAreExit65NamingThePath(layer: String, path: String, words: String) throws {
        let ws = try CLIWorkspace()
        try ws.write("bad.json", Self.quad(layer: layer))
        for command in [
            ["validate", "bad.json"], ["render", "bad.json", "-o", "out.png"], ["info", "bad.json"], ["tessellate", "bad.json"],
        ] {
            let rest = CLITests.expectFailure(try ws.run(command), code: 65, file: "bad.json")
            #expect(rest.hasPrefix(path + ": "), "\(command[0]): \(rest)")
            #expect(rest.contains(words), "\(command[0]): \(rest)")
        }
        #expect(!ws.exists("out.png"))
    }

    @Test func infoListsTheLightsAndMaterial() throws {
        let ws = try CLIWorkspace()
        let layer =
            #"{"lights": [{"type": "ambient", "intensity": 0.2}, \#(Self.spot)"innerAngle": 15, "outerAngle": 25}], "material": {"specular": 0.5}}"#
        try ws.write("lit.json", Self.quad(layer: layer))
        let info = try ws.run(["info", "lit.json"])
        #expect(info.status == 0, "\(info.err)")
        #expect(info.lines.contains("lights: 2"))
        #expect(info.lines.contains("  [0] ambient, color [1, 1, 1], intensity 0.2"))
        #expect(
            info.lines.contains(
                "  [1] spot at [0, 0, 1] shining [0, 0, -1], cone 15°…25°, color [1, 1, 1], intensity 1, attenuation [1, 0, 0]"))
        #expect(info.lines.contains("material: ambient 1, diffuse 1, specular 0.5, shininess 32"))
        // A layer without lights reports as before: no lights or material lines.
        try ws.write("plain.json", CLIFixtures.quad())
        let plain = try ws.run(["info", "plain.json"])
        #expect(!plain.out.contains("lights") && !plain.out.contains("material"))
    }

    /// Runs scripts/glb-lights.py (pygltflib) on a file and returns its JSON.
    static func readGLB(_ path: String) throws -> [String: Any] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts").appendingPathComponent("glb-lights.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, path]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "glb-lights.py failed (is pygltflib installed? run scripts/setup.sh): \(message)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aGLBsLightsAreFoundByAGLTFReader() throws {
        let ws = try CLIWorkspace()
        let layer = """
            {"size": [200, 100], "lights": [
              {"type": "ambient", "color": [1, 0.5, 0.25], "intensity": 0.4},
              {"type": "directional", "direction": [1, -2, 2], "color": [2, 1, 0.5], "intensity": 0.5},
              {"type": "point", "position": [30, 40, 50], "intensity": 2},
              {"type": "spot", "position": [100, 20, 80], "direction": [0, 3, -4], "innerAngle": 15, "outerAngle": 30}],
             "material": {"ambient": 0.5, "diffuse": 0.8, "specular": 0.25, "shininess": 30}}
            """
        try ws.write("lit.json", Self.quad(layer: layer))
        // `sort` writes screen space, where the lights stand.
        let sort = try ws.run(["sort", "lit.json", "--format", "glb", "-o", "lit.glb"])
        #expect(sort.status == 0, "\(sort.err)")
        let glb = try Self.readGLB(ws.path("lit.glb"))
        #expect((glb["extensionsUsed"] as? [String])?.contains("KHR_lights_punctual") == true)
        let lights = try #require(glb["lights"] as? [[String: Any]])
        try #require(lights.count == 3)
        func vector(_ value: Any?) throws -> [Double] { try #require(value as? [Double]) }
        func close(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-6) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
        }
        // Directional: it shines away from the direction toward it, (−1, 2, −2)/3; its colour
        // [2, 1, 0.5] is written as [1, 0.5, 0.25] with the 2 moved into the intensity.
        #expect(lights[0]["type"] as? String == "directional")
        #expect(close(try vector(lights[0]["direction"]), [-1.0 / 3, 2.0 / 3, -2.0 / 3]))
        #expect(close(try vector(lights[0]["color"]), [1, 0.5, 0.25]))
        #expect(abs((lights[0]["intensity"] as? Double ?? 0) - 1) < 1e-6)
        #expect(lights[1]["type"] as? String == "point")
        #expect(close(try vector(lights[1]["position"]), [30, 40, 50]))
        #expect(abs((lights[1]["intensity"] as? Double ?? 0) - 2) < 1e-6)
        // Spot: along (0, 3, −4)/5, cones in radians.
        #expect(lights[2]["type"] as? String == "spot")
        #expect(close(try vector(lights[2]["position"]), [100, 20, 80]))
        #expect(close(try vector(lights[2]["direction"]), [0, 0.6, -0.8]))
        #expect(abs((lights[2]["innerConeAngle"] as? Double ?? 0) - 15 * Double.pi / 180) < 1e-6)
        #expect(abs((lights[2]["outerConeAngle"] as? Double ?? 0) - 30 * Double.pi / 180) < 1e-6)
        #expect(lights.allSatisfy { $0["inScene"] as? Bool == true })
        // The ambient light baked as emissive: material.ambient × colour × intensity.
        #expect(close(try vector(glb["emissiveFactor"]), [0.2, 0.1, 0.05]))
        #expect(abs((glb["specularFactor"] as? Double ?? 0) - 0.25) < 1e-6)
        #expect(abs((glb["roughnessFactor"] as? Double ?? 0) - pow(2.0 / 32, 0.25)) < 1e-6)

        // A unit-space file (tessellate's default) has no place for screen-space lights.
        #expect(try ws.run(["tessellate", "lit.json", "--format", "glb", "-o", "unit.glb"]).status == 0)
        #expect(try Self.readGLB(ws.path("unit.glb"))["lights"] as? [Any] != nil)
        #expect((try Self.readGLB(ws.path("unit.glb"))["lights"] as? [Any])?.isEmpty == true)
    }

    @Test func theLitExampleRendersLit() throws {
        let ws = try CLIWorkspace()
        #expect(try ws.run(["example", "lit", "-o", "lit.json"]).status == 0)
        let info = try ws.run(["info", "lit.json", "--steps", "0"])
        #expect(info.lines.contains("lights: 3"))
        #expect(info.lines.contains { $0.hasPrefix("  [1] point at ") } && info.lines.contains { $0.hasPrefix("  [2] spot at ") })
        let render = try ws.run(["render", "lit.json", "--steps", "1", "--scale", "0.25", "-o", "lit.svg"])
        #expect(render.status == 0, "\(render.err)")
        // Lit per triangle: the fills vary far more than one colour.
        let fills = Set(
            String(decoding: try ws.read("lit.svg"), as: UTF8.self).split(separator: "fill=\"").dropFirst().map { $0.prefix(7) })
        #expect(fills.count > 100)
    }
}
