import RealModule

/// The shading of a layer lit by ``LightSource``s: the one implementation of the formula that
/// `meshgeo render` (PNG per pixel, SVG per triangle) uses, and the reference that other renderers
/// (the live view's shader) are tested against.
///
/// At a surface point p (screen-space points, see ``LayerGeometry/litPosition(ofPoints:)``) with
/// unit normal n, unit viewer direction v and, per light, the unit direction l toward the light:
///
///     colour = content × (Σ ambient·I + Σ diffuse·I·max(0, n·l)) + Σ specular·I·max(0, r·v)^shininess
///
/// - v points from p to the eye, ``eye``, or is (0, 0, 1) when the eye is at infinity;
/// - two-sided: n is flipped when n·v < 0, so both faces are lit alike;
/// - I = colour × intensity × attenuation × spot factor; ambient lights add to the first sum only,
///   the other kinds to the diffuse and specular sums only;
/// - attenuation (point, spot) = 1 / (c + l·dist + q·dist²) with dist = |position − p|, the
///   denominator kept at least ``minimumAttenuationDenominator``; 1 for directional lights;
/// - spot factor: θ the angle between the spot's direction and p − position; 1 for θ ≤ inner,
///   0 for θ ≥ outer, between them smoothstep(t) = t²(3 − 2t) with t = (outer − θ)/(outer − inner);
/// - r = 2(n·l)n − l, the reflection of l about n; the specular term counts only where n·l > 0
///   (a light behind the surface makes no highlight);
/// - a point exactly at a light's position (l undefined) gets nothing from that light;
/// - each channel is clamped to [0, 1]; alpha is unchanged.
public struct PhongLighting: Hashable, Sendable {
    public var lights: [LightSource]
    public var material: Material
    /// The eye in screen-space points, or `nil` for a viewer at infinity along +z (no perspective).
    public var eye: Point3D?

    /// Keeps `1 / (c + l·dist + q·dist²)` finite at the light's own position when c = 0.
    public static let minimumAttenuationDenominator = 1e-12

    public init(lights: [LightSource], material: Material = .standard, eye: Point3D? = nil) {
        self.lights = lights
        self.material = material
        self.eye = eye
    }

    /// The two factors of the formula at one point: `colour = content × scale + highlight`
    /// before clamping.
    public struct Reflectance: Hashable, Sendable {
        /// Σ ambient·I + Σ diffuse·I·max(0, n·l), per channel.
        public var scale: SIMD3<Double>
        /// Σ specular·I·max(0, r·v)^shininess, per channel.
        public var highlight: SIMD3<Double>

        public init(scale: SIMD3<Double>, highlight: SIMD3<Double>) {
            self.scale = scale
            self.highlight = highlight
        }

        /// `clamp(content.rgb × scale + highlight, 0, 1)` with alpha unchanged (straight alpha).
        public func applied(to content: SIMD4<Double>) -> SIMD4<Double> {
            var out = content
            for k in 0..<3 {
                let value = content[k] * scale[k] + highlight[k]
                out[k] = value.isNaN ? 0 : Swift.min(1, Swift.max(0, value))
            }
            return out
        }
    }

    /// The lit colour of `content` (straight-alpha RGBA, 0…1) at `point` with surface normal
    /// `normal` (any length; a zero normal is taken as facing the viewer).
    public func shade(_ content: SIMD4<Double>, at point: Point3D, normal: Point3D) -> SIMD4<Double> {
        reflectance(at: point, normal: normal).applied(to: content)
    }

    /// The factors of the formula at `point` with surface normal `normal`.
    public func reflectance(at point: Point3D, normal: Point3D) -> Reflectance {
        let v: Point3D
        if let eye {
            v = PhongLighting.unit(eye - point) ?? Point3D(0, 0, 1)
        } else {
            v = Point3D(0, 0, 1)
        }
        var n = PhongLighting.unit(normal) ?? v
        if n.dot(v) < 0 { n = -n }
        var scale = SIMD3<Double>.zero, highlight = SIMD3<Double>.zero
        for light in lights {
            let radiance = light.color * light.intensity
            switch light.kind {
            case .ambient:
                scale += material.ambient * radiance
                continue
            case .directional:
                guard let l = PhongLighting.unit(light.direction) else { continue }
                add(radiance, toward: l, n: n, v: v, scale: &scale, highlight: &highlight)
            case .point, .spot:
                let offset = light.position - point
                guard let l = PhongLighting.unit(offset) else { continue }
                var factor = PhongLighting.attenuation(light.attenuation, distance: PhongLighting.length(offset))
                if light.kind == .spot {
                    factor *= PhongLighting.spotFactor(light, toward: l)
                }
                guard factor > 0 else { continue }
                add(radiance * factor, toward: l, n: n, v: v, scale: &scale, highlight: &highlight)
            }
        }
        return Reflectance(scale: scale, highlight: highlight)
    }

    @inline(__always)
    private func add(
        _ radiance: SIMD3<Double>, toward l: Point3D, n: Point3D, v: Point3D, scale: inout SIMD3<Double>,
        highlight: inout SIMD3<Double>
    ) {
        let cosine = n.dot(l)
        guard cosine > 0 else { return }
        scale += material.diffuse * cosine * radiance
        guard material.specular > 0 else { return }
        let r = 2 * cosine * n - l
        let rv = r.dot(v)
        guard rv > 0 else { return }
        let power = Double.pow(Swift.min(1, rv), material.shininess)
        highlight += material.specular * power * radiance
    }
}

extension PhongLighting {
    /// `1 / max(c + l·d + q·d², minimumAttenuationDenominator)`; 0 when the distance overflows.
    @inline(__always)
    static func attenuation(_ coefficients: SIMD3<Double>, distance d: Double) -> Double {
        let denominator = coefficients.x + coefficients.y * d + coefficients.z * d * d
        guard denominator.isFinite else { return 0 }
        return 1 / Swift.max(denominator, minimumAttenuationDenominator)
    }

    /// 1 inside the inner cone, 0 outside the outer, smoothstep in the angle between them. `l`
    /// points from the surface toward the light, so the light travels along −l.
    static func spotFactor(_ light: LightSource, toward l: Point3D) -> Double {
        guard let axis = unit(light.direction) else { return 0 }
        let cosine = Swift.min(1, Swift.max(-1, -axis.dot(l)))
        let angle = Double.acos(cosine) * 180 / Double.pi
        if angle <= light.innerAngle { return 1 }
        if angle >= light.outerAngle { return 0 }
        let t = (light.outerAngle - angle) / (light.outerAngle - light.innerAngle)
        return t * t * (3 - 2 * t)
    }

    /// The unit vector along `a`, or `nil` for a zero or non-finite vector. Scaled by its largest
    /// component first, so huge and tiny finite vectors normalise without overflow.
    @inline(__always)
    static func unit(_ a: Point3D) -> Point3D? {
        let largest = Swift.max(abs(a.x), abs(a.y), abs(a.z))
        guard largest > 0, largest.isFinite else { return nil }
        let b = a / largest
        return b / (b * b).sum().squareRoot()
    }

    /// |a| without overflow for finite components.
    @inline(__always)
    static func length(_ a: Point3D) -> Double {
        let largest = Swift.max(abs(a.x), abs(a.y), abs(a.z))
        guard largest > 0 else { return 0 }
        let b = a / largest
        return largest * (b * b).sum().squareRoot()
    }
}

public extension PhongLighting {
    /// The lighting of `layer`: its lights (none when `layer.lights` is `nil`), its material, and
    /// the eye of its perspective.
    init(layer: LayerProperties) {
        let geometry = LayerGeometry(layer: layer, depthNormalization: .none)
        self.init(lights: layer.lights ?? [], material: layer.material, eye: geometry.eye)
    }
}

public extension LayerGeometry {
    /// The eye in screen-space points, or `nil` (a viewer at infinity along +z) when the
    /// transform has no perspective.
    ///
    /// For a transform that is only a perspective `m34 = −1/d` the eye is at (anchor, d). In
    /// general the transform is read as an affine map A (see ``litPosition(ofPoints:)``) followed
    /// by a projection whose w is affine in the lit position q: w = g·(q − anchor) + h. The eye is
    /// the point over the anchor where w = 0, z = −h / g.z; it exists when that is a finite
    /// positive distance. A rotated perspective (`CATransform3DRotate` of a perspective) so keeps
    /// its eye at (anchor, d) although its m34 is no longer −1/d.
    var eye: Point3D? {
        let m = transform
        let r1 = Point3D(m.row1.x, m.row1.y, m.row1.z)
        let r2 = Point3D(m.row2.x, m.row2.y, m.row2.z)
        let r3 = Point3D(m.row3.x, m.row3.y, m.row3.z)
        let c = Point3D(m.row1.w, m.row2.w, m.row3.w)
        guard c != .zero else { return nil }
        let c23 = r2.cross(r3), c31 = r3.cross(r1), c12 = r1.cross(r2)
        let det = r1.dot(c23)
        guard det != 0, det.isFinite else { return nil }
        // g = A⁻¹·c: the columns of A⁻¹ are the cross products of A's rows over det.
        let g = (c.x * c23 + c.y * c31 + c.z * c12) / det
        let h = m.row4.w - Point3D(m.row4.x, m.row4.y, m.row4.z).dot(g)
        let distance = -h / g.z
        guard distance > 0, distance.isFinite else { return nil }
        return Point3D(anchorInPoints.x, anchorInPoints.y, distance)
    }

    /// Where a points-space point is for lighting: carried by the transform's affine part (its
    /// upper 3 × 3 and translation m41…m43, without the perspective column) about the anchor.
    ///
    /// For a transform that is a rigid or linear map followed by a perspective `m34 = −1/d` (as
    /// Core Animation builds them), this is the point in 3D seen through the eye at (anchor, d):
    /// the point the perspective divide projects onto the screen.
    func litPosition(ofPoints p: Point3D) -> Point3D {
        let q = p - anchorInPoints
        let m = transform
        let x = q.x * m.row1 + q.y * m.row2 + q.z * m.row3 + m.row4
        return Point3D(x.x, x.y, x.z) + anchorInPoints
    }
}
