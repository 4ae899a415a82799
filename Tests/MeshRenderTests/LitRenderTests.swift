import Foundation
import MeshRender
import MeshTessellate
import SurfaceKit
import Testing

/// Pictures under `layer.lights`: every pixel against the shading formula written out here, on
/// layers whose surface point and normal at a pixel are known in closed form.
@Suite struct LitRenderTests {
    /// A flat layer of `width × height` points as one face drawn as two triangles (steps 0): the
    /// per-pixel shading must not depend on how coarse the triangles are.
    static func flatLayer(
        width: Double, height: Double, lights: [LightSource], material: Material = .standard, transform: Transform3D = .identity
    ) throws -> MeshDocument {
        let mesh = try RenderFixtures.grid(rows: 1, columns: 1, steps: 0) { Point3D($0.x, $0.y, 0) }
        return MeshDocument(
            mesh: mesh, layer: LayerProperties(size: SIMD2(width, height), transform: transform, lights: lights, material: material))
    }

    static func render(_ document: MeshDocument, texture: RGBA8 = RGBA8(255, 255, 255)) throws -> RGBAImage {
        try MeshRenderer.image(of: document, texture: try RenderFixtures.solid(texture))
    }

    /// Every pixel's grey level within one step of 255 × `expected(x, y)` at its centre.
    static func expectEveryPixel(
        _ image: RGBAImage, sourceLocation: SourceLocation = #_sourceLocation, _ expected: (Double, Double) -> Double
    ) throws {
        var worst = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let pixel = try #require(image.pixel(x: x, y: y))
                let value = 255 * Swift.min(1, Swift.max(0, expected(Double(x) + 0.5, Double(y) + 0.5)))
                worst = Swift.max(worst, abs(Double(pixel.red) - value), abs(Double(pixel.blue) - value))
                #expect(pixel.alpha == 255, sourceLocation: sourceLocation)
            }
        }
        #expect(worst <= 1, "largest difference \(worst) of 255", sourceLocation: sourceLocation)
    }

    @Test func aFlatLayerUnderAPointLightFallsOffSmoothly() throws {
        // A light 25 pt above (20.3, 17.6): at distance d the surface gets cos θ = 25/d times
        // 0.5 / (0.6 + 2·10⁻⁴·d²). Two triangles for 64 × 48 pixels: shading per vertex would be
        // far off, per pixel it is the formula everywhere.
        let light = Point3D(20.3, 17.6, 25)
        let document = try Self.flatLayer(
            width: 64, height: 48, lights: [.point(at: light, intensity: 0.5, attenuation: SIMD3(0.6, 0, 2e-4))])
        let image = try Self.render(document)
        try Self.expectEveryPixel(image) { x, y in
            let d = ((x - light.x) * (x - light.x) + (y - light.y) * (y - light.y) + light.z * light.z).squareRoot()
            return light.z / d * 0.5 / (0.6 + 2e-4 * d * d)
        }
        // The brightest pixel is the one under the light.
        var best = (x: -1, y: -1, red: 0)
        for y in 0..<48 {
            for x in 0..<64 where Int(image.pixel(x: x, y: y)?.red ?? 0) > best.red {
                best = (x, y, Int(image.pixel(x: x, y: y)?.red ?? 0))
            }
        }
        #expect(abs(best.x - 20) <= 1 && abs(best.y - 17) <= 1, "\(best)")
    }

    @Test func aSpotLightsItsConeWithASoftEdge() throws {
        // A spot 30 pt above the centre of an 80 × 80 layer, straight down: a pixel r from the
        // axis is θ = atan(r/30) off it; full within 25°, none beyond 35°, smoothstep between.
        let height = 30.0, inner = 25.0, outer = 35.0
        let document = try Self.flatLayer(
            width: 80, height: 80,
            lights: [.spot(at: Point3D(40, 40, height), shining: Point3D(0, 0, -1), innerAngle: inner, outerAngle: outer)])
        let image = try Self.render(document)
        var edge = 0, dark = 0
        try Self.expectEveryPixel(image) { x, y in
            let r = ((x - 40) * (x - 40) + (y - 40) * (y - 40)).squareRoot()
            let theta = atan(r / height) * 180 / .pi
            let d = (r * r + height * height).squareRoot()
            var factor = 1.0
            if theta >= outer {
                factor = 0
                dark += 1
            } else if theta > inner {
                let t = (outer - theta) / (outer - inner)
                factor = t * t * (3 - 2 * t)
                edge += 1
            }
            return factor * height / d
        }
        #expect(edge > 300 && dark > 2000, "\(edge) pixels on the edge, \(dark) outside")
        #expect(image.pixel(x: 0, y: 0) == RGBA8(0, 0, 0, 255))
    }

    @Test func theHighlightIsWhereTheLightMirrorsIntoTheEye() throws {
        // A perspective eye at (60, 45, 300) over a flat layer (which it leaves in place) and a
        // light at (20, 30, 60): the mirror point on z = 0 divides the way from the light's foot
        // to the eye's as 60 : 300, at (26.67, 32.5). Specular only, shininess 200.
        let eye = Point3D(60, 45, 300), light = Point3D(20, 30, 60)
        let mirror = SIMD2(light.x, light.y) + (SIMD2(eye.x, eye.y) - SIMD2(light.x, light.y)) * light.z / (light.z + eye.z)
        let document = try Self.flatLayer(
            width: 120, height: 90, lights: [.point(at: light)],
            material: Material(ambient: 0, diffuse: 0, specular: 1, shininess: 200), transform: .perspective(eyeDistance: eye.z))
        let image = try Self.render(document)
        try Self.expectEveryPixel(image) { x, y in
            let p = Point3D(x, y, 0)
            let l = (light - p) / (light - p).length, v = (eye - p) / (eye - p).length
            let r = 2 * l.z * Point3D(0, 0, 1) - l
            return pow(Swift.max(0, r.dot(v)), 200)
        }
        var best = (x: -1, y: -1, red: -1)
        for y in 0..<90 {
            for x in 0..<120 where Int(image.pixel(x: x, y: y)?.red ?? 0) > best.red {
                best = (x, y, Int(image.pixel(x: x, y: y)?.red ?? 0))
            }
        }
        #expect(best.x == Int(mirror.x) && best.y == Int(mirror.y), "brightest \(best), mirror point \(mirror)")
        #expect(best.red >= 250)
    }

    @Test func aTiltedLayerUnderADirectionalLightIsLitByItsTurnedNormal() throws {
        // Rotation by 60° about x turns the normal (0, 0, 1) to (0, −sin 60°, cos 60°). A light
        // toward (0, −1, 1)/√2 makes cos = (sin 60° + cos 60°)/√2; one toward (0, 1, 1)/√2 is
        // behind the surface (cos < 0), leaving only the ambient 0.1.
        let angle = Double.pi / 3
        let m = try RenderFixtures.transform([1, 0, 0, 0, 0, cos(angle), sin(angle), 0, 0, -sin(angle), cos(angle), 0, 0, 0, 0, 1])
        let cases: [(Point3D, [LightSource], Double)] = [
            (Point3D(0, -1, 1), [], (sin(angle) + cos(angle)) / 2.0.squareRoot()),
            (Point3D(0, 1, 1), [.ambient(intensity: 0.1)], 0.1),
        ]
        for (direction, extra, brightness) in cases {
            let document = try Self.flatLayer(width: 40, height: 40, lights: [.directional(toward: direction)] + extra, transform: m)
            let image = try Self.render(document, texture: RGBA8(255, 200, 100))
            // The layer spans y = 20 ± 20·cos 60° = 10…30 on screen.
            for (x, y) in [(20, 20), (5, 12), (34, 27)] {
                let pixel = try #require(image.pixel(x: x, y: y))
                #expect(abs(Double(pixel.red) - 255 * brightness) <= 1, "\(direction): \(pixel)")
                #expect(abs(Double(pixel.blue) - 100 * brightness) <= 1, "\(direction): \(pixel)")
            }
        }
    }

    @Test func theSVGLightsEachTriangleAtItsCentroid() throws {
        let light = Point3D(10, 30, 20)
        let document = try Self.flatLayer(width: 50, height: 40, lights: [.point(at: light), .ambient(intensity: 0.2)])
        let svg = try MeshRenderer.svg(of: document)
        let base = SIMD3<Double>(214, 224, 238)
        var polygons = 0
        for line in svg.split(separator: "\n") where line.hasPrefix("<polygon") {
            let points = try #require(line.split(separator: "\"").dropFirst().first).split(separator: " ").map { pair in
                pair.split(separator: ",").compactMap { Double($0) }
            }
            let cx = points.map { $0[0] }.reduce(0, +) / 3, cy = points.map { $0[1] }.reduce(0, +) / 3
            let d = ((cx - light.x) * (cx - light.x) + (cy - light.y) * (cy - light.y) + light.z * light.z).squareRoot()
            let factor = 0.2 + light.z / d
            let fill = try #require(line.split(separator: "fill=\"").dropFirst().first?.prefix(7))
            let channels = [1, 3, 5].map { Int(fill.dropFirst($0).prefix(2), radix: 16) ?? -1 }
            for k in 0..<3 {
                #expect(abs(Double(channels[k]) - Swift.min(255, base[k] * factor)) <= 1, "\(line)")
            }
            polygons += 1
        }
        #expect(polygons == 2)
    }

    // MARK: Without lights, nothing changes

    /// FNV-1a, 64 bits.
    static func fnv(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    @Test(arguments: [
        (ExampleMesh.wavy, UInt64(0xe8e7_9fcc_89b4_f415), UInt64(0xd46d_90cd_d442_df2a)),
        (.cylinder, 0xf496_e283_b71f_4d2d, 0x48b4_7fae_4a91_e63e),
        (.curl, 0x6cd9_057a_e937_cc75, 0xd481_048d_2e4d_4ad1),
    ])
    func picturesWithoutLightsAreAsBefore(_ example: ExampleMesh, pixels: UInt64, svg: UInt64) throws {
        // The hashes are of the pictures the renderer made before lights existed (`meshgeo render
        // --steps 3 --scale 0.5`, the PNG's decoded RGBA and the SVG's bytes).
        let options = RenderOptions(scale: 0.5, tessellation: TessellationOptions(steps: .fixed(3)))
        var document = example.document
        #expect(Self.fnv(try MeshRenderer.image(of: document, options: options).pixels) == pixels)
        #expect(Self.fnv(try MeshRenderer.svgData(of: document, options: options)) == svg)
        // A material alone does not change the single light's picture.
        document.layer.material = Material(ambient: 0.3, diffuse: 0.2, specular: 1, shininess: 4)
        #expect(Self.fnv(try MeshRenderer.image(of: document, options: options).pixels) == pixels)
    }

    @Test func theLightOptionOverridesTheLayersLights() throws {
        var document = try Self.flatLayer(width: 30, height: 20, lights: [.ambient(intensity: 0.1)])
        let options = RenderOptions(light: Light(direction: Point3D(0, 3, 4)))
        let lit = try MeshRenderer.image(of: document, texture: try RenderFixtures.solid(RGBA8(255, 255, 255)), options: options)
        document.layer.lights = nil
        let single = try MeshRenderer.image(of: document, texture: try RenderFixtures.solid(RGBA8(255, 255, 255)), options: options)
        #expect(lit == single)
        #expect(lit.pixel(x: 10, y: 10) == RGBA8(204, 204, 204, 255))
    }
}

@Suite struct LitRenderRobustnessTests {
    @Test func extremeButValidLightsGiveNoNaNAnywhere() throws {
        let mesh = try RenderFixtures.grid(rows: 1, columns: 1, steps: 0) { Point3D($0.x, $0.y, 0) }
        // A subnormal, computed: a literal this small makes the compiler warn.
        let subnormal = Double.leastNormalMagnitude / 0x1p20
        let lights: [LightSource] = [
            .ambient(color: SIMD3(1e308, 0, 1), intensity: 1e308),
            .point(at: Point3D(1e300, -1e300, 1e-300), intensity: 1e308, attenuation: SIMD3(0, 0, subnormal)),
            .spot(at: Point3D(20, 15, 1e-300), shining: Point3D(subnormal, 0, -subnormal), innerAngle: 1e-300, outerAngle: 1e-300),
            .directional(toward: Point3D(-1e308, 1e308, 1e308), intensity: 0),
        ]
        let layer = LayerProperties(
            size: SIMD2(40, 30), transform: .perspective(eyeDistance: 1e-300), lights: lights,
            material: Material(ambient: 1e308, diffuse: 1e308, specular: 1e308, shininess: 1e308))
        try layer.validate()
        let document = MeshDocument(mesh: mesh, layer: layer)
        _ = try MeshRenderer.image(of: document)
        let svg = try MeshRenderer.svg(of: document)
        #expect(!svg.lowercased().contains("nan") && !svg.lowercased().contains("inf"))
        let triangles = try Tessellator.tessellate(document, options: TessellationOptions(), space: .screen)
        let glb = try triangles.glbBytes(layer: layer)
        let json = String(decoding: glb[20..<(20 + Int(glb[12]) + Int(glb[13]) << 8)], as: UTF8.self)
        #expect(json.contains("KHR_lights_punctual"))
        #expect(!json.lowercased().contains("nan") && !json.lowercased().contains("inf"), "\(json)")
    }
}
