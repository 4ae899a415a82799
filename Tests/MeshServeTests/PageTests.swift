import Foundation
import MeshTessellate
import SurfaceKit
import Testing

/// The page in a real browser: Debian's Chromium, headless, driven over the DevTools pipe by
/// Browser/drive_page.py against a running `meshgeo serve`. Screenshots are kept under
/// .build/serve-screenshots/ (the path is printed).
@Suite(.serialized) struct PageTests {
    /// Chromium as scripts/setup.sh installs it (CHROMIUM overrides).
    static let chromium = ProcessInfo.processInfo.environment["CHROMIUM"] ?? "/usr/bin/chromium"
    static let driver = Processes.packageRoot.appendingPathComponent("Tests/MeshServeTests/Browser/drive_page.py")
    static let layer = SIMD2<Double>(240, 180)

    /// One step of the driver: a named JS expression, or a screenshot.
    static func step(_ name: String, _ expression: String) -> [String: String] { ["name": name, "eval": expression] }

    /// Nine tessellations of a one-face mesh, one after the other, from the page; the statuses.
    static let forgetExpression = """
        (async () => {
          const mesh = {vertices: [{from: [0, 0], to: [0, 0, 0]}, {from: [1, 0], to: [1, 0, 0]},
            {from: [1, 1], to: [1, 1, 0]}, {from: [0, 1], to: [0, 1, 0]}], faces: [{indices: [0, 1, 2, 3]}]};
          const statuses = [];
          for (let k = 0; k < 9; k++) {
            const response = await fetch("/api/tessellate", {method: "POST", body: JSON.stringify({mesh, steps: 0})});
            statuses.push(response.status);
          }
          return statuses;
        })()
        """

    struct Pixels {
        var width: Int
        var height: Int
        var rgba: [UInt8]

        init(_ value: Any?) throws {
            let object = try #require(value as? [String: Any], "pixels: \(String(describing: value))")
            width = try #require(object["width"] as? Int)
            height = try #require(object["height"] as? Int)
            rgba = Array(try #require(Data(base64Encoded: object["rgba"] as? String ?? "")))
            #expect(rgba.count == width * height * 4)
        }

        func alpha(_ x: Int, _ y: Int) -> UInt8 {
            guard (0..<width).contains(x), (0..<height).contains(y) else { return 0 }
            return rgba[(y * width + x) * 4 + 3]
        }
    }

    /// A JS expression that shades every vector of Tests/Fixtures/shading-vectors.json with the
    /// page's `MeshShading.phongReflectance` and returns the count and the largest difference from
    /// the expected colour (with the vector's name).
    static func shadingVectorsExpression() throws -> String {
        let file = Processes.packageRoot.appendingPathComponent("Tests/Fixtures/shading-vectors.json")
        let json = try String(contentsOf: file, encoding: .utf8)
        return """
            (() => { const data = \(json);
              let worst = 0, name = "";
              for (const v of data.vectors) {
                const material = Object.assign({}, MeshShading.materialDefaults, v.material || {});
                const r = MeshShading.phongReflectance(v.lights, material, v.eye, v.point, v.normal);
                for (let k = 0; k < 3; k++) {
                  const c = Math.min(1, Math.max(0, v.content[k] * r.scale[k] + r.highlight[k]));
                  const d = Math.abs(c - v.expected[k]);
                  if (!(d <= worst)) { worst = d; name = v.name; }
                }
              }
              return {count: data.vectors.length, worst, name}; })()
            """
    }

    @Test(.timeLimit(.minutes(5))) func pageDrawsEditsAndHitTests() throws {
        #expect(FileManager.default.isExecutableFile(atPath: PageTests.chromium), "Chromium is missing: run scripts/setup.sh")
        let folder = Processes.packageRoot.appendingPathComponent(".build/serve-screenshots")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        print("page test screenshots and logs: \(folder.path)")

        // A 4 × 4 identity grid on a 240 × 180 layer, the served mesh.
        var mesh = try MeshTransform.identity(rows: 4, columns: 4)
        mesh.subdivisionSteps = .fixed(2)
        let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: PageTests.layer))
        let meshFile = folder.appendingPathComponent("grid.json")
        try document.jsonBytes().withUnsafeBytes { try Data($0).write(to: meshFile) }

        let (server, url) = try Processes.startServer(mesh: meshFile, folder: folder)
        defer { server.stop() }

        let steps: [[String: String]] = [
            PageTests.step("steps", "meshgeo.set({steps: 2, controlMesh: false})"),
            PageTests.step("view", "meshgeo.view()"),
            PageTests.step("before", "meshgeo.pixels()"),
            ["screenshot": "01-loaded.png"],
            // Vertex 0 is the layer's top-left corner, which the surface interpolates.
            PageTests.step("edit", "meshgeo.setVertex(0, {to: [-0.25, -0.25, 0]})"),
            PageTests.step("editStats", "meshgeo.stats()"),
            PageTests.step("after", "meshgeo.pixels()"),
            ["screenshot": "02-corner-moved.png"],
            PageTests.step("tilt", "meshgeo.set({rotateX: 60, controlMesh: true})"),
            PageTests.step("displayed", "JSON.stringify(meshgeo.displayed())"),
            PageTests.step("hit", "meshgeo.hit(130, 100).then(JSON.stringify)"),
            PageTests.step("shade", "meshgeo.shade([1, 1, 1, 1], [120, 90, 0], [0, 0, 1])"),
            PageTests.step("vectors", try PageTests.shadingVectorsExpression()),
            PageTests.step("stats", "meshgeo.stats()"),
            PageTests.step("error", "meshgeo.lastError()"),
            ["screenshot": "03-tilted-hit.png"],
            // Nine other meshes make the server forget the page's (it keeps eight): the next edit
            // is refused with 409 and the page sends the whole mesh instead.
            PageTests.step("forget", PageTests.forgetExpression),
            PageTests.step("fallback", "meshgeo.setVertex(5, {to: [0.3, 0.3, 0]})"),
            PageTests.step("fallbackError", "meshgeo.lastError()"),
        ]
        let stepsFile = folder.appendingPathComponent("steps.json")
        try JSONSerialization.data(withJSONObject: steps).write(to: stepsFile)
        // The driver needs only Python's standard library: the first python3 on the PATH.
        let browser = try Processes.Child(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", PageTests.driver.path, "--chromium", PageTests.chromium, "--url", url, "--steps", stepsFile.path, "--out",
                folder.path,
            ],
            folder: folder, name: "driver")
        defer { browser.stop() }
        #expect(browser.waitForExit(seconds: 240), "the browser driver did not finish in time")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(browser.output.utf8)) as? [String: Any],
            "driver output: \(browser.output) \(browser.errors)")
        let results = try #require(report["results"] as? [String: Any])
        #expect(results["driver error"] == nil, "\(String(describing: results["driver error"])); console: \(report["console"] ?? "")")

        // The surface covers the layer's bounds and nothing else: the view maps layer points
        // (x, y) to canvas pixels (view.x + scale·x, view.y + scale·y).
        let view = try #require(results["view"] as? [String: Any])
        let scale = try #require((view["scale"] as? NSNumber)?.doubleValue)
        let ox = try #require((view["x"] as? NSNumber)?.doubleValue), oy = try #require((view["y"] as? NSNumber)?.doubleValue)
        let before = try Pixels(results["before"])
        var inside = 0, insideCovered = 0, outsideCovered = 0
        let margin = 2.0
        for y in 0..<before.height {
            for x in 0..<before.width {
                let lx = (Double(x) + 0.5 - ox) / scale, ly = (Double(y) + 0.5 - oy) / scale
                let covered = before.alpha(x, y) > 0
                if lx > margin && lx < PageTests.layer.x - margin && ly > margin && ly < PageTests.layer.y - margin {
                    inside += 1
                    if covered { insideCovered += 1 }
                } else if lx < -margin || lx > PageTests.layer.x + margin || ly < -margin || ly > PageTests.layer.y + margin {
                    if covered { outsideCovered += 1 }
                }
            }
        }
        #expect(inside > 10_000)
        #expect(insideCovered == inside, "\(inside - insideCovered) pixels inside the layer are empty")
        #expect(outsideCovered == 0, "\(outsideCovered) pixels outside the layer are drawn")

        // Moving the interpolated corner to (−0.25, −0.25) draws the surface beyond the layer's
        // top-left corner, where nothing was.
        let after = try Pixels(results["after"])
        let probe = (x: Int(ox + scale * (-0.17 * PageTests.layer.x)), y: Int(oy + scale * (-0.17 * PageTests.layer.y)))
        #expect(before.alpha(probe.x, probe.y) == 0)
        #expect(after.alpha(probe.x, probe.y) > 0)
        let changed = zip(before.rgba, after.rgba).filter { $0 != $1 }.count
        #expect(changed > 1000)

        // The page's exact hit is the command line's for the mesh the page shows.
        // (The mesh as the page's JSON text, so that the command line reads the very same numbers.)
        let displayed = try #require(results["displayed"] as? String)
        let shownFile = folder.appendingPathComponent("displayed.json")
        try Data(displayed.utf8).write(to: shownFile)
        let cli = try Processes.Child(
            try #require(Processes.meshgeo), ["hit", shownFile.path, "--steps", "2", "--exact", "--at", "130,100"], folder: folder,
            name: "hit")
        defer { cli.stop() }
        #expect(cli.waitForExit(seconds: 60))
        // Numbers are compared as read by Double(String), which rounds exactly.
        let cliHit = Substring(cli.output)
        let pageHit = Substring(try #require(results["hit"] as? String, "\(String(describing: results["hit"]))"))
        #expect(pageHit.contains("\"hit\":true") && cliHit.contains("\"hit\":true"), "page \(pageHit), CLI \(cliHit) \(cli.errors)")
        for key in ["from", "to"] {
            #expect(RawJSON.array(pageHit, key) == RawJSON.array(cliHit, key), "\(key): page \(pageHit), CLI \(cliHit)")
            #expect(RawJSON.array(pageHit, key).count == (key == "from" ? 2 : 3))
        }
        for key in ["x", "y", "face", "depth"] {
            #expect(RawJSON.number(pageHit, key) != nil && RawJSON.number(pageHit, key) == RawJSON.number(cliHit, key), "\(key)")
        }

        // The layer turned 60° about x under the default light (0, 0, 1), diffuse 1: a flat
        // normal (0, 0, 1) becomes (0, −sin 60°, cos 60°), so the content is lit by cos 60° = ½.
        let shade = (results["shade"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.doubleValue }
        #expect(shade.count == 4)
        for k in 0..<3 where k < shade.count { #expect(abs(shade[k] - 0.5) < 1e-12) }

        // The page's Phong lighting (the formula its fragment shader mirrors) against the vectors
        // an independent implementation computed, which the library's shading is tested on too.
        let vectors = try #require(results["vectors"] as? [String: Any], "\(String(describing: results["vectors"]))")
        #expect((vectors["count"] as? Int ?? 0) >= 40)
        let worst = (vectors["worst"] as? NSNumber)?.doubleValue ?? .infinity
        #expect(worst <= 1e-9, "largest difference \(worst) at '\(vectors["name"] ?? "")'")

        let stats = try #require(results["stats"] as? [String: Any])
        // 16 faces at steps 2: 16 × 4² quads, two triangles each.
        #expect(stats["triangles"] as? Int == 512)
        // The moved vertex went as an edit of the mesh the server kept, not as the whole mesh;
        // the turn (a new layer) too. The pictures above check what it drew.
        let editStats = try #require(results["editStats"] as? [String: Any])
        #expect(editStats["sentAs"] as? String == "edits")
        #expect(stats["sentAs"] as? String == "edits")
        #expect(results["forget"] as? [Int] == Array(repeating: 200, count: 9))
        let fallback = try #require(results["fallback"] as? [String: Any], "\(String(describing: results["fallback"]))")
        #expect(fallback["sentAs"] as? String == "mesh")
        #expect(fallback["triangles"] as? Int == 512)
        #expect(results["fallbackError"] == nil || results["fallbackError"] is NSNull)
        #expect(results["error"] is NSNull || results["error"] == nil, "\(String(describing: results["error"]))")
        for shot in ["01-loaded.png", "02-corner-moved.png", "03-tilted-hit.png"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(shot).path), "\(shot)")
        }
    }
}
