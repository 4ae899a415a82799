import Foundation
import MeshRender
import MeshTessellate
import SurfaceKit
import Testing

// Pictures checked against the mathematics of Docs/surface.md (spaces) and Docs/rendering.md: the expected colour of a pixel
// comes from the map written out in each test (identity, an affine map, a homography), the
// gradient texture's closed form, and the lighting formula (1 − k) + k·|n·l|.

@Suite struct RenderTests {
    @Test func identityMeshReproducesTheTexture() throws {
        let texture = try RenderFixtures.noise(width: 24, height: 16)
        for steps in [0, 2] {
            let mesh = try RenderFixtures.grid(rows: 2, columns: 3, steps: steps) { Point3D($0.x, $0.y, 0) }
            let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(24, 16)))
            let image = try MeshRenderer.image(of: document, texture: texture)
            #expect(image.width == 24 && image.height == 16)
            #expect(image.pixels == texture.pixels, "steps \(steps)")
        }
    }

    @Test func textureIsStretchedOverTheLayerAtAnyScale() throws {
        // A 4 × 4 texture on a 32 × 32-pixel picture: pixel centre (x + ½)/32 samples texel
        // coordinate 4(x + ½)/32 − ½, so the gradient gives red = 8·that, exactly.
        let texture = try RenderFixtures.gradient(width: 4, height: 4)
        let mesh = try RenderFixtures.grid(rows: 1, columns: 1, steps: 0) { Point3D($0.x, $0.y, 0) }
        let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(16, 16)))
        let image = try MeshRenderer.image(of: document, texture: texture, options: RenderOptions(scale: 2))
        #expect(image.width == 32 && image.height == 32)
        for x in 4..<28 {
            let u = (Double(x) + 0.5) / 32
            let expected = RenderFixtures.gradientColour(u: u, v: 0.5, width: 4, height: 4).red
            let pixel = try #require(image.pixel(x: x, y: 16))
            #expect(abs(Double(pixel.red) - expected) <= 0.51, "x \(x): \(pixel.red) vs \(expected)")
        }
    }

    @Test func affineMeshMovesTheTextureByTheAffineMap() throws {
        // to = A·from + b in unit coordinates, flat. Catmull–Clark commutes with affine maps, so
        // the surface is that map exactly at any steps.
        let a = (0.55, 0.25, -0.15, 0.6) // row-major 2 × 2
        let b = (0.12, 0.2)
        func map(_ p: LayerPoint) -> Point3D { Point3D(a.0 * p.x + a.1 * p.y + b.0, a.2 * p.x + a.3 * p.y + b.1, 0) }
        let det = a.0 * a.3 - a.1 * a.2
        func inverse(_ q: LayerPoint) -> LayerPoint {
            let x = q.x - b.0, y = q.y - b.1
            return LayerPoint((a.3 * x - a.1 * y) / det, (-a.2 * x + a.0 * y) / det)
        }
        let texture = try RenderFixtures.gradient()
        let size = 80.0
        for steps in [0, 1] {
            let mesh = try RenderFixtures.grid(rows: 2, columns: 2, steps: steps, to: map)
            let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(size, size)))
            let image = try MeshRenderer.image(of: document, texture: texture)
            var checked = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map {
                        inverse(LayerPoint((Double(x) + $0.0) / size, (Double(y) + $0.1) / size))
                    }
                    let pixel = try #require(image.pixel(x: x, y: y))
                    let margin = 1.0 / 32
                    if corners.allSatisfy({ $0.x > margin && $0.x < 1 - margin && $0.y > margin && $0.y < 1 - margin }) {
                        let from = inverse(LayerPoint((Double(x) + 0.5) / size, (Double(y) + 0.5) / size))
                        let expected = RenderFixtures.gradientColour(u: from.x, v: from.y)
                        #expect(abs(Double(pixel.red) - expected.red) <= 1, "(\(x), \(y)) red \(pixel.red) vs \(expected.red)")
                        #expect(abs(Double(pixel.green) - expected.green) <= 1, "(\(x), \(y)) green \(pixel.green) vs \(expected.green)")
                        #expect(pixel.alpha == 255)
                        checked += 1
                    } else if corners.allSatisfy({ $0.x < 0 || $0.x > 1 || $0.y < 0 || $0.y > 1 }) {
                        // Entirely outside the image of the layer only if all corners are
                        // outside on the same side; a convex image makes one side enough.
                        let sameSide =
                            corners.allSatisfy { $0.x < 0 } || corners.allSatisfy { $0.x > 1 }
                            || corners.allSatisfy { $0.y < 0 } || corners.allSatisfy { $0.y > 1 }
                        if sameSide { #expect(pixel == RGBA8(0, 0, 0, 0), "(\(x), \(y))") }
                    }
                }
            }
            #expect(checked > 1000)
        }
    }

    @Test func perspectiveQuadMatchesTheHomography() throws {
        // One flat quad on a 64-point layer, rotated 50° about y with the eye 80 points away
        // (m34 = −1/80): layer point → screen is a homography, and perspective-correct mapping
        // must reproduce it on both triangles, with no seam along the diagonal.
        let theta = 50.0 * Double.pi / 180, d = 80.0, side = 64.0, scale = 2.0
        let (c, s) = (cos(theta), sin(theta))
        // Rotation about y (row vectors, CATransform3D layout) times the perspective.
        let m: [Double] = [c, 0, -s, s / d, 0, 1, 0, 0, s, 0, c, -c / d, 0, 0, 0, 1]
        let mesh = try RenderFixtures.grid(rows: 1, columns: 1, steps: 0) { Point3D($0.x, $0.y, 0) }
        let layer = LayerProperties(size: SIMD2(side, side), transform: try RenderFixtures.transform(m))
        // Diffuse 0: unlit, so the colours are the texture's alone (lighting has its own tests).
        let image = try MeshRenderer.image(
            of: MeshDocument(mesh: mesh, layer: layer), texture: try RenderFixtures.gradient(),
            options: RenderOptions(scale: scale, light: Light(diffuse: 0)))

        // [x y 0 1]·M with x, y relative to the anchor (32, 32): screen = (X/W + 32, Y/W + 32).
        // As a 3 × 3 map of (u, v, 1) to homogeneous screen points, H = columns below.
        let half = side / 2
        func screen(_ u: Double, _ v: Double) -> SIMD2<Double> {
            let x = side * u - half, y = side * v - half
            let X = x * m[0] + y * m[4] + m[12], Y = x * m[1] + y * m[5] + m[13], W = x * m[3] + y * m[7] + m[15]
            return SIMD2(X / W + half, Y / W + half)
        }
        // H maps (u, v, 1) to (X + 32W, Y + 32W, W); its inverse by cofactors.
        let h: [[Double]] = [
            [
                side * (m[0] + half * m[3]), side * (m[4] + half * m[7]),
                -half * (m[0] + m[4]) + m[12] + half * (-half * (m[3] + m[7]) + m[15]),
            ],
            [
                side * (m[1] + half * m[3]), side * (m[5] + half * m[7]),
                -half * (m[1] + m[5]) + m[13] + half * (-half * (m[3] + m[7]) + m[15]),
            ],
            [side * m[3], side * m[7], -half * (m[3] + m[7]) + m[15]],
        ]
        func cofactor(_ r: Int, _ k: Int) -> Double {
            let rows = [0, 1, 2].filter { $0 != r }, cols = [0, 1, 2].filter { $0 != k }
            let minor = h[rows[0]][cols[0]] * h[rows[1]][cols[1]] - h[rows[0]][cols[1]] * h[rows[1]][cols[0]]
            return (r + k) % 2 == 0 ? minor : -minor
        }
        let det = h[0][0] * cofactor(0, 0) + h[0][1] * cofactor(0, 1) + h[0][2] * cofactor(0, 2)
        func layerPoint(_ p: SIMD2<Double>) -> SIMD2<Double> {
            let q = [p.x, p.y, 1.0]
            var r = [0.0, 0.0, 0.0]
            for i in 0..<3 { for j in 0..<3 { r[i] += cofactor(j, i) / det * q[j] } }
            return SIMD2(r[0] / r[2], r[1] / r[2])
        }
        // The test's own maps agree with each other…
        let probe = layerPoint(screen(0.3, 0.7))
        #expect(abs(probe.x - 0.3) < 1e-12 && abs(probe.y - 0.7) < 1e-12)
        // …and are far from what affine (screen-linear) interpolation would give: at the screen
        // midpoint of the diagonal 0–2 an affine map reads u = 0.5.
        let middle = (screen(0, 0) + screen(1, 1)) / 2
        #expect(abs(layerPoint(middle).x - 0.5) * 256 > 10)

        var checked = 0, onDiagonal = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let corners = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)].map {
                    layerPoint(SIMD2((Double(x) + $0.0) / scale, (Double(y) + $0.1) / scale))
                }
                let margin = 1.0 / 32
                guard corners.allSatisfy({ $0.x > margin && $0.x < 1 - margin && $0.y > margin && $0.y < 1 - margin }) else { continue }
                let from = layerPoint(SIMD2((Double(x) + 0.5) / scale, (Double(y) + 0.5) / scale))
                let expected = RenderFixtures.gradientColour(u: from.x, v: from.y)
                let pixel = try #require(image.pixel(x: x, y: y))
                #expect(abs(Double(pixel.red) - expected.red) <= 1.5, "(\(x), \(y)) red \(pixel.red) vs \(expected.red)")
                #expect(abs(Double(pixel.green) - expected.green) <= 1.5, "(\(x), \(y)) green \(pixel.green) vs \(expected.green)")
                #expect(pixel.alpha == 255)
                checked += 1
                if abs(from.x - from.y) < 0.02 { onDiagonal += 1 }
            }
        }
        #expect(checked > 2000)
        #expect(onDiagonal > 40)
    }

    @Test func flatLayerTiltedSixtyDegreesIsLitAtHalfIntensity() throws {
        // Rotation by 60° about x: the normal (0, 0, 1) turns to make cos 60° = ½ with the light
        // (0, 0, 1), so the intensity is (1 − k) + k/2: ½ for k = 1, ¾ for k = ½.
        let angle = Double.pi / 3
        let m: [Double] = [1, 0, 0, 0, 0, cos(angle), sin(angle), 0, 0, -sin(angle), cos(angle), 0, 0, 0, 0, 1]
        let mesh = try RenderFixtures.grid(rows: 2, columns: 2, steps: 1) { Point3D($0.x, $0.y, 0) }
        for (diffuse, intensity) in [(1.0, 0.5), (0.5, 0.75)] {
            let layer = LayerProperties(
                size: SIMD2(40, 40), transform: try RenderFixtures.transform(m), light: Light(diffuse: diffuse))
            let white = try RenderFixtures.solid(RGBA8(255, 255, 255))
            let image = try MeshRenderer.image(of: MeshDocument(mesh: mesh, layer: layer), texture: white)
            // The layer spans y = 20 ± 20·cos 60° = 10…30 on screen.
            for (x, y) in [(20, 20), (5, 12), (34, 27)] {
                let pixel = try #require(image.pixel(x: x, y: y))
                let expected = 255 * intensity
                #expect(abs(Double(pixel.red) - expected) <= 0.5 && pixel.red == pixel.green && pixel.green == pixel.blue)
                #expect(pixel.alpha == 255)
            }
            #expect(image.pixel(x: 20, y: 5)?.alpha == 0)
            #expect(image.pixel(x: 20, y: 34)?.alpha == 0)
        }
    }

    @Test func untiltedLayerUnderAnObliqueLightIsLitByTheCosine() throws {
        // Light (0, 3, 4): |n·l̂| = 4/5 for the normal (0, 0, 1); with k = 1 the intensity is 0.8.
        let mesh = try RenderFixtures.grid(rows: 1, columns: 1, steps: 0) { Point3D($0.x, $0.y, 0) }
        let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(10, 10)))
        let options = RenderOptions(light: Light(direction: Point3D(0, 3, 4), diffuse: 1))
        let image = try MeshRenderer.image(of: document, texture: try RenderFixtures.solid(RGBA8(200, 100, 50)), options: options)
        #expect(image.pixel(x: 5, y: 5) == RGBA8(160, 80, 40, 255))
    }

    @Test func outsideTheMeshIsTransparentAndEdgesAreCovered() throws {
        // The layer shrunk to the square 0.25…0.75 of a 42-point layer: its left edge is at
        // x = 10.5, so pixel 10 has exactly half of its 4 × 4 samples inside.
        let mesh = try RenderFixtures.grid(rows: 1, columns: 1, steps: 0) { Point3D(0.25 + 0.5 * $0.x, 0.25 + 0.5 * $0.y, 0) }
        let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(42, 42)))
        let image = try MeshRenderer.image(of: document, texture: try RenderFixtures.solid(RGBA8(255, 255, 255)))
        for y in 0..<42 {
            for x in 0..<42 {
                let pixel = try #require(image.pixel(x: x, y: y))
                let inside = (11...30).contains(x) && (11...30).contains(y)
                let outside = x < 10 || x > 31 || y < 10 || y > 31
                if inside { #expect(pixel == RGBA8(255, 255, 255, 255), "(\(x), \(y))") }
                if outside { #expect(pixel == RGBA8(0, 0, 0, 0), "(\(x), \(y))") }
            }
        }
        // Half covered: alpha 255/2, colour still white (straight alpha).
        #expect(image.pixel(x: 10, y: 20) == RGBA8(255, 255, 255, 128))
        #expect(image.pixel(x: 31, y: 20) == RGBA8(255, 255, 255, 128))
        // A corner pixel: a quarter.
        #expect(image.pixel(x: 10, y: 10)?.alpha == 64)
    }

    @Test func semiTransparentLayersCompositeBackToFront() throws {
        // Two separate faces over the same screen square: the red left half of the texture at
        // z = 0 and the blue right half at z = 0.1, nearer the viewer. At opacity ½ the nearer
        // is drawn last: premultiplied ½·blue + ½·½·red, alpha ¾ → straight (⅓ red, ⅔ blue).
        var texture = try RGBAImage(width: 4, height: 1)
        for x in 0..<4 { texture.setPixel(x: x, y: 0, to: x < 2 ? RGBA8(255, 0, 0) : RGBA8(0, 0, 255)) }
        func square(_ u0: Double, z: Double) -> [MeshVertex] {
            [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map { c in
                MeshVertex(from: LayerPoint(u0 + 0.25 * c.0, c.1), to: Point3D(0.2 + 0.6 * c.0, 0.2 + 0.6 * c.1, z))
            }
        }
        // The texture's colour boundary is at u = 0.5; the faces sample u in 0…0.25 and 0.75…1.
        for order in [[0.0, 0.1], [0.1, 0.0]] {
            let vertices = square(order[0] == 0 ? 0 : 0.75, z: order[0]) + square(order[1] == 0 ? 0 : 0.75, z: order[1])
            let mesh = try MeshTransform(
                vertices: vertices, faces: [MeshFace(0, 1, 2, 3), MeshFace(4, 5, 6, 7)], subdivisionSteps: .fixed(0))
            let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(20, 20)))
            for sort in [PainterSorter.Mode.depth, .exact] {
                let image = try MeshRenderer.image(of: document, texture: texture, options: RenderOptions(opacity: 0.5, sort: sort))
                let pixel = try #require(image.pixel(x: 10, y: 10))
                #expect(abs(Double(pixel.red) - 255.0 / 3) <= 1 && pixel.green == 0 && abs(Double(pixel.blue) - 510.0 / 3) <= 1, "\(pixel)")
                #expect(abs(Double(pixel.alpha) - 0.75 * 255) <= 1)
            }
        }
    }

    @Test func pictureSizeIsTheLayerTimesTheScale() throws {
        let options = RenderOptions(scale: 0.8)
        #expect(try options.pixelSize(forLayerSize: SIMD2(320, 120)) == (256, 96))
        #expect(try RenderOptions(scale: 1.5).pixelSize(forLayerSize: SIMD2(3, 1)) == (5, 2))
        #expect(throws: MeshError.self) { try RenderOptions(scale: 0).pixelSize(forLayerSize: SIMD2(1, 1)) }
        #expect(throws: MeshError.self) { try RenderOptions(scale: 1e9).pixelSize(forLayerSize: SIMD2(1, 1)) }
    }
}

@Suite struct RenderRobustnessTests {
    @Test func geometryThroughTheEyeIsClippedNotInverted() throws {
        // Rotated 80° about x with the eye 30 points away: a point y points below the anchor
        // (y up to 50) gets w = 1 − y·sin 80°/30, which is 0 at y ≈ 30.5, so the bottom of the
        // 100-point layer passes the eye and must be clipped; the top half recedes and is drawn.
        // Nothing traps, and the picture is partly covered, partly empty.
        let angle = 80.0 * Double.pi / 180, d = 30.0
        let m: [Double] = [
            1, 0, 0, 0, 0, cos(angle), sin(angle), -sin(angle) / d, 0, -sin(angle), cos(angle), -cos(angle) / d, 0, 0, 0, 1,
        ]
        let mesh = try RenderFixtures.grid(rows: 4, columns: 4, steps: 1) { Point3D($0.x, $0.y, 0) }
        let layer = LayerProperties(size: SIMD2(100, 100), transform: try RenderFixtures.transform(m))
        let document = MeshDocument(mesh: mesh, layer: layer)
        let image = try MeshRenderer.image(of: document)
        let alphas = stride(from: 3, to: image.pixels.count, by: 4).map { image.pixels[$0] }
        #expect(alphas.contains(255))
        #expect(alphas.contains(0))
        let svg = try MeshRenderer.svg(of: document)
        #expect(svg.contains("<polygon"))
        #expect(!svg.contains("nan") && !svg.contains("inf"))
    }

    @Test func extremeButFiniteLightsAndEmptyMeshesAreFine() throws {
        let mesh = try RenderFixtures.grid(rows: 1, columns: 1, steps: 0) { Point3D($0.x, $0.y, 0) }
        let document = MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(8, 8)))
        let white = try RenderFixtures.solid(RGBA8(255, 255, 255))
        // A huge light along +z is still the light (0, 0, 1): full intensity on a flat layer.
        let huge = RenderOptions(light: Light(direction: Point3D(0, 0, 1e308)))
        #expect(try MeshRenderer.image(of: document, texture: white, options: huge).pixel(x: 4, y: 4) == RGBA8(255, 255, 255, 255))
        #expect(throws: MeshError.self) {
            try MeshRenderer.image(of: document, options: RenderOptions(light: Light(direction: .zero)))
        }
        let empty = MeshDocument(mesh: MeshTransform(), layer: LayerProperties(size: SIMD2(3, 2)))
        let picture = try MeshRenderer.image(of: empty)
        #expect(picture.width == 3 && picture.height == 2 && picture.pixels.allSatisfy { $0 == 0 })
    }
}
