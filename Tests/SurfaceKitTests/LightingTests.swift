import Foundation
import Testing

@testable import SurfaceKit

/// Lights and material: the shading formula against vectors computed by an independent
/// implementation (scripts/shading-vectors.py), the eye and lit position of a transform against
/// the projection they must reproduce, and mesh.json's `layer.lights` and `layer.material`.
@Suite struct LightingTests {
    /// A unit quad whose layer is `layer` (a JSON object's text).
    static func quad(layer: String) -> String {
        """
        {"vertices": [{"from": [0, 0], "to": [0, 0, 0]}, {"from": [1, 0], "to": [1, 0, 0]},
          {"from": [1, 1], "to": [1, 1, 0]}, {"from": [0, 1], "to": [0, 1, 0]}],
         "faces": [{"indices": [0, 1, 2, 3]}], "layer": \(layer)}
        """
    }

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent("shading-vectors.json")

    // MARK: The formula

    @Test func shadingMatchesTheIndependentVectors() throws {
        let data = try Data(contentsOf: LightingTests.fixture)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let tolerance = try #require(root["tolerance"] as? Double)
        let vectors = try #require(root["vectors"] as? [[String: Any]])
        #expect(vectors.count >= 50)
        func doubles(_ value: Any?) throws -> [Double] { try #require(value as? [Double]) }
        func vector3(_ value: Any?) throws -> Point3D {
            let d = try doubles(value)
            return Point3D(d[0], d[1], d[2])
        }
        var lit = 0
        for vector in vectors {
            let name = try #require(vector["name"] as? String)
            // The lights and material go through the mesh.json reader, as a user's would.
            let layer = try JSONSerialization.data(withJSONObject: [
                "lights": vector["lights"] ?? [], "material": vector["material"] ?? [:],
            ])
            let document = try MeshDocument(jsonString: LightingTests.quad(layer: String(decoding: layer, as: UTF8.self)))
            let eye = vector["eye"] is NSNull ? nil : try vector3(vector["eye"])
            let lighting = PhongLighting(lights: try #require(document.layer.lights), material: document.layer.material, eye: eye)
            let content = try doubles(vector["content"]), expected = try doubles(vector["expected"])
            let colour = lighting.shade(
                SIMD4(content[0], content[1], content[2], content[3]), at: try vector3(vector["point"]),
                normal: try vector3(vector["normal"]))
            for k in 0..<4 {
                #expect(abs(colour[k] - expected[k]) <= tolerance, "\(name) channel \(k): \(colour[k]) vs \(expected[k])")
            }
            if expected[0] > 0.01 && expected[0] < 0.99 { lit += 1 }
        }
        // Most vectors land strictly between black and white, where every term shows.
        #expect(lit > 30)
    }

    @Test func aSpotLightsItsConeAndNothingOutside() {
        // Straight down from 100 pt; the point at angle θ off the axis lies 100·tan θ away.
        let spot = LightSource.spot(at: Point3D(0, 0, 100), shining: Point3D(0, 0, -1), innerAngle: 10, outerAngle: 20)
        let lighting = PhongLighting(lights: [spot])
        func brightness(_ degrees: Double) -> Double {
            let p = Point3D(100 * tan(degrees * .pi / 180), 0, 0)
            return lighting.shade(SIMD4(1, 1, 1, 1), at: p, normal: Point3D(0, 0, 1)).x
        }
        // Diffuse cos θ inside the inner cone, 0 outside the outer, smoothstep between.
        #expect(abs(brightness(5) - cos(5 * .pi / 180)) < 1e-12)
        #expect(brightness(20.5) == 0)
        let t = (20 - 15.0) / 10
        #expect(abs(brightness(15) - t * t * (3 - 2 * t) * cos(15 * .pi / 180)) < 1e-12)
    }

    // MARK: Eye and lit position

    @Test func theEyeOfARotatedPerspectiveIsAtItsDistance() throws {
        let layer = LayerProperties(size: SIMD2(300, 200), anchor: LayerPoint(0.25, 0.5))
        var geometry = LayerGeometry(layer: layer, depthNormalization: .none)
        #expect(geometry.eye == nil)
        for (angle, axis) in [(0.0, Point3D(1, 0, 0)), (0.7, Point3D(1, 0, 0)), (-1.1, Point3D(0.3, 1, 0.2))] {
            geometry.transform = Transform3D.rotation(angle: angle, axis: axis).concatenating(.perspective(eyeDistance: 400))
            let eye = try #require(geometry.eye)
            #expect(abs(eye.x - 75) < 1e-9 && abs(eye.y - 100) < 1e-9 && abs(eye.z - 400) < 1e-9, "\(eye)")
            // The lit position seen from the eye projects where the transform puts the point.
            for p in [Point3D(10, 20, 30), Point3D(280, 150, -40), Point3D(75, 100, 0)] {
                let q = geometry.litPosition(ofPoints: p)
                let screen = try #require(geometry.screenFromPoints(p))
                let scale = eye.z / (eye.z - q.z)
                #expect(abs(eye.x + (q.x - eye.x) * scale - screen.x) < 1e-9)
                #expect(abs(eye.y + (q.y - eye.y) * scale - screen.y) < 1e-9)
            }
        }
        geometry.transform = .rotation(angle: 0.5, axis: Point3D(0, 1, 0))
        #expect(geometry.eye == nil)
    }

    // MARK: mesh.json

    @Test func lightsAndMaterialReadBackEqual() throws {
        let layer = LayerProperties(
            size: SIMD2(320, 240),
            lights: [
                .ambient(color: SIMD3(1, 0.9, 0.8), intensity: 0.2),
                .directional(toward: Point3D(0.1, -0.2, 1), intensity: 0.5),
                .point(at: Point3D(160, 120, 300), color: SIMD3(0, 1, 0.5), intensity: 1.5, attenuation: SIMD3(1, 0.001, 1e-6)),
                .spot(at: Point3D(1, 2, 3), shining: Point3D(0, 0.5, -1), innerAngle: 12.5, outerAngle: 30),
            ],
            material: Material(ambient: 0.5, diffuse: 0.9, specular: 0.25, shininess: 64))
        let document = MeshDocument(mesh: try MeshTransform.identity(rows: 1, columns: 1), layer: layer)
        let text = document.jsonString()
        #expect(!text.contains("\"light\""))
        #expect(try MeshDocument(jsonString: text) == document)
        // An empty array is kept: lit by nothing, not the single light.
        var dark = document
        dark.layer.lights = []
        #expect(try MeshDocument(jsonString: dark.jsonString()).layer.lights == [])
        // Without lights the layer is written as before, with `light` and no `material`.
        let plain = MeshDocument(mesh: document.mesh)
        #expect(plain.jsonString().contains("\"light\": {\"direction\": [0, 0, 1], \"diffuse\": 1}\n  }\n}\n"))
        #expect(!plain.jsonString().contains("material"))
    }

    @Test func defaultsFillWhatALightLeavesOut() throws {
        let document = try MeshDocument(
            jsonString: LightingTests.quad(
                layer:
                    #"{"lights": [{"type": "directional"}, {"type": "spot", "position": [1, 2, 3], "direction": [0, 0, -1], "outerAngle": 40}]}"#
            ))
        let lights = try #require(document.layer.lights)
        #expect(lights[0] == LightSource(kind: .directional, color: SIMD3(1, 1, 1), intensity: 1, direction: Point3D(0, 0, 1)))
        #expect(lights[1].innerAngle == 0 && lights[1].attenuation == SIMD3(1, 0, 0) && lights[1].color == SIMD3(1, 1, 1))
        #expect(document.layer.material == Material(ambient: 1, diffuse: 1, specular: 0, shininess: 32))
    }

    struct BadCase: CustomTestStringConvertible, Sendable {
        var layer: String
        var path: String
        var words: [String]
        var testDescription: String { path + " " + (words.first ?? "") }
    }

    static let badCases: [BadCase] = [
        BadCase(layer: #"{"light": {"diffuse": 1}, "lights": []}"#, path: "layer.lights", words: ["'layer.light'", "'layer.lights'"]),
        BadCase(layer: #"{"lights": {}}"#, path: "layer.lights", words: ["an array of lights"]),
        BadCase(layer: #"{"lights": [{"type": "spto"}]}"#, path: "layer.lights[0].type", words: ["did you mean 'spot'"]),
        BadCase(layer: #"{"lights": [{"color": [1, 1, 1]}]}"#, path: "layer.lights[0].type", words: ["missing"]),
        BadCase(
            layer: #"{"lights": [{"type": "point", "position": [0, 0, 1], "intensty": 1}]}"#, path: "layer.lights[0].intensty",
            words: ["did you mean 'intensity'"]),
        BadCase(
            layer: #"{"lights": [{"type": "ambient", "position": [0, 0, 1]}]}"#, path: "layer.lights[0].position",
            words: ["does not apply", "ambient"]),
        BadCase(
            layer: #"{"lights": [{"type": "spot", "position": [0, 0, 1], "outerAngle": 30}]}"#, path: "layer.lights[0].direction",
            words: ["missing"]),
        BadCase(layer: #"{"lights": [{"type": "point"}]}"#, path: "layer.lights[0].position", words: ["missing"]),
        BadCase(
            layer: #"{"lights": [{"type": "spot", "position": [0, 0, 1], "direction": [0, 0, -1]}]}"#, path: "layer.lights[0].outerAngle",
            words: ["missing"]),
        BadCase(
            layer: #"{"lights": [{"type": "ambient", "intensity": -0.5}]}"#, path: "layer.lights[0].intensity", words: ["-0.5", "≥ 0"]),
        BadCase(
            layer: #"{"lights": [{"type": "ambient"}, {"type": "ambient", "color": [1, -1, 1]}]}"#, path: "layer.lights[1].color[1]",
            words: ["≥ 0"]),
        BadCase(
            layer: #"{"lights": [{"type": "directional", "direction": [0, 0, 0]}]}"#, path: "layer.lights[0].direction",
            words: ["no length"]),
        BadCase(
            layer: #"{"lights": [{"type": "spot", "position": [0, 0, 1], "direction": [0, 0, 0], "outerAngle": 30}]}"#,
            path: "layer.lights[0].direction", words: ["no length"]),
        BadCase(
            layer: #"{"lights": [{"type": "spot", "position": [0, 0, 1], "direction": [0, 0, -1], "innerAngle": 40, "outerAngle": 30}]}"#,
            path: "layer.lights[0].innerAngle", words: ["greater than outerAngle 30"]),
        BadCase(
            layer: #"{"lights": [{"type": "spot", "position": [0, 0, 1], "direction": [0, 0, -1], "outerAngle": 91}]}"#,
            path: "layer.lights[0].outerAngle", words: ["at most 90"]),
        BadCase(
            layer: #"{"lights": [{"type": "spot", "position": [0, 0, 1], "direction": [0, 0, -1], "outerAngle": 0}]}"#,
            path: "layer.lights[0].outerAngle", words: ["above 0"]),
        BadCase(
            layer: #"{"lights": [{"type": "spot", "position": [0, 0, 1], "direction": [0, 0, -1], "innerAngle": -1, "outerAngle": 10}]}"#,
            path: "layer.lights[0].innerAngle", words: ["≥ 0"]),
        BadCase(
            layer: #"{"lights": [{"type": "point", "position": [0, 0, 1], "attenuation": [0, 0, 0]}]}"#,
            path: "layer.lights[0].attenuation", words: ["divides by zero"]),
        BadCase(
            layer: #"{"lights": [{"type": "point", "position": [0, 1e999, 1]}]}"#, path: "layer.lights[0].position[1]", words: ["finite"]),
        BadCase(layer: #"{"material": {"shininess": -2}}"#, path: "layer.material.shininess", words: ["≥ 0"]),
        BadCase(layer: #"{"material": {"specualr": 1}}"#, path: "layer.material.specualr", words: ["did you mean 'specular'"]),
        BadCase(
            layer: #"{"lights": [\#(Array(repeating: #"{"type": "ambient"}"#, count: 17).joined(separator: ","))]}"#, path: "layer.lights",
            words: ["17 lights", "16"]),
    ]

    @Test(arguments: badCases)
    func badLightsNameTheirPath(_ bad: BadCase) {
        do {
            _ = try MeshDocument(jsonString: LightingTests.quad(layer: bad.layer))
            Issue.record("accepted \(bad.layer)")
        } catch let error as MeshError {
            #expect(error.path == bad.path, "\(error)")
            for word in bad.words { #expect(error.message.contains(word), "\(error)") }
        } catch {
            Issue.record("threw \(error)")
        }
    }

    @Test func validateRefusesWhatTheReaderRefuses() {
        var layer = LayerProperties(lights: [.spot(at: .zero, shining: Point3D(0, 0, -1), innerAngle: 30, outerAngle: 20)])
        #expect(throws: MeshError.self) { try layer.validate() }
        layer.lights = [.point(at: Point3D(0, .nan, 0))]
        #expect(throws: MeshError.self) { try layer.validate() }
        layer.lights = nil
        layer.material.diffuse = .infinity
        #expect(throws: MeshError.self) { try layer.validate() }
    }
}
