import RealModule

/// Meshes from the mesh-transform literature, ready to tessellate: the article's wavy and ripple
/// meshes, BCMeshTransformView's skew, a cylinder, a page curl and spacetime's split in half.
public enum ExampleMesh: String, CaseIterable, Sendable {
    /// The article's wavy transform: 40 columns, a sine along x, squeezed toward the right.
    case wavy
    /// The reference ripple of the benchmarks (Docs/performance.md): 100 × 100 faces, `z = 0.05 sin(2π·4·r)`, tilted −45°
    /// about x with perspective `m34 = −1/2` on a unit layer.
    case ripple
    /// BCMeshTransformView's simplest mesh: one face with its top-left corner moved to x = 0.5.
    case skew
    /// The layer wrapped halfway around a cylinder whose axis is vertical.
    case cylinder
    /// A page curling up from its bottom-right corner.
    case curl
    /// spacetime's split: the top and bottom halves as two pieces pulled apart by a gap.
    case split
    /// The ripple on a 320 × 240-point layer under a spot and a point light (`layer.lights`).
    case lit

    /// One line on what the example shows.
    public var summary: String {
        switch self {
        case .wavy: "the article's wavy label: 40 columns, sine-shaped, squeezed to the right"
        case .ripple: "the reference ripple: 100 × 100 faces, z = 0.05·sin(8π·r), tilted with perspective"
        case .skew: "BCMeshTransformView's skew: one face, top-left corner moved to x = 0.5"
        case .cylinder: "a layer wrapped halfway around a vertical cylinder"
        case .curl: "a page curling up from its bottom-right corner"
        case .split: "spacetime's split: top and bottom halves pulled apart"
        case .lit: "a ripple lit by a warm point light and a cool spot, with highlights (layer.lights)"
        }
    }

    /// The mesh and its layer.
    public var document: MeshDocument {
        switch self {
        case .wavy: Self.wavy()
        case .ripple: Self.ripple()
        case .skew: Self.skew()
        case .cylinder: Self.cylinder()
        case .curl: Self.curl()
        case .split: Self.split()
        case .lit: Self.lit()
        }
    }
}

extension ExampleMesh {
    static func wavy() -> MeshDocument {
        let waves = 3.0, amplitude = 0.15, shrink = 0.3
        let columns = 40
        var vertices: [MeshVertex] = []
        for i in 0...columns {
            let t = Double(i) / Double(columns)
            let s = Double.sin(t * Double.pi * waves)
            vertices.append(MeshVertex(from: LayerPoint(t, 0), to: Point3D(t, amplitude * s * s + shrink * t, 0)))
            vertices.append(MeshVertex(from: LayerPoint(t, 1), to: Point3D(t, 1 - amplitude + amplitude * s * s - shrink * t, 0)))
        }
        let faces = (0..<columns).map { i in MeshFace(2 * i, 2 * i + 2, 2 * i + 3, 2 * i + 1) }
        let mesh = MeshTransform(unchecked: vertices, faces: faces, depthNormalization: .none, subdivisionSteps: .fixed(0))
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(320, 120)))
    }

    static func ripple() -> MeshDocument {
        var mesh = gridOrEmpty(rows: 100, columns: 100)
        for i in mesh.vertices.indices {
            let p = mesh.vertices[i].from
            let r = ((p.x - 0.5) * (p.x - 0.5) + (p.y - 0.5) * (p.y - 0.5)).squareRoot()
            mesh.vertices[i].to = Point3D(p.x, p.y, 0.05 * Double.sin(r * 2 * Double.pi * 4))
        }
        var transform = Transform3D.rotation(angle: -Double.pi / 4, axis: SIMD3(1, 0, 0))
        transform.m34 = -1.0 / 2
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(1, 1), transform: transform))
    }

    /// The article's ripple under moving lights, held still: a 64 × 48-face ripple of 8 pt
    /// amplitude, tilted back 25° in perspective, lit by an ambient fill, a warm point light over
    /// its upper left and a cool spot from the right, with a specular highlight.
    static func lit() -> MeshDocument {
        let rows = 48, columns = 64
        var mesh = gridOrEmpty(rows: rows, columns: columns)
        for i in mesh.vertices.indices {
            let p = mesh.vertices[i].from
            // Round ripples on the 4 : 3 layer: the radius measured in points, over the width.
            let dx = p.x - 0.5, dy = (p.y - 0.5) * 0.75
            let r = (dx * dx + dy * dy).squareRoot()
            mesh.vertices[i].to = Point3D(p.x, p.y, 8 * Double.sin(r * 2 * Double.pi * 5))
        }
        mesh.subdivisionSteps = .fixed(2)
        var transform = Transform3D.rotation(angle: -25 * Double.pi / 180, axis: SIMD3(1, 0, 0))
        transform.m34 = -1.0 / 900
        let lights: [LightSource] = [
            .ambient(color: SIMD3(0.55, 0.6, 0.75), intensity: 0.3),
            .point(at: Point3D(70, 50, 110), color: SIMD3(1, 0.85, 0.6), intensity: 1.1, attenuation: SIMD3(0.7, 0, 2e-5)),
            .spot(
                at: Point3D(330, 220, 200), shining: Point3D(-110, -60, -200), innerAngle: 10, outerAngle: 20,
                color: SIMD3(0.55, 0.75, 1), intensity: 0.8),
        ]
        let layer = LayerProperties(
            size: SIMD2(320, 240), transform: transform, lights: lights, material: Material(specular: 0.5, shininess: 24))
        return MeshDocument(mesh: mesh, layer: layer)
    }

    static func skew() -> MeshDocument {
        let vertices = [
            MeshVertex(from: LayerPoint(0, 0), to: Point3D(0.5, 0, 0)),
            MeshVertex(from: LayerPoint(1, 0), to: Point3D(1, 0, 0)),
            MeshVertex(from: LayerPoint(1, 1), to: Point3D(1, 1, 0)),
            MeshVertex(from: LayerPoint(0, 1), to: Point3D(0, 1, 0)),
        ]
        let mesh = MeshTransform(unchecked: vertices, faces: [MeshFace(0, 1, 2, 3)], depthNormalization: .none, subdivisionSteps: .fixed(0))
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(400, 300)))
    }

    static func cylinder() -> MeshDocument {
        // Half a turn: x ∈ [0, 1] maps to the angle −π/2…π/2 around a vertical axis at depth −r.
        var mesh = gridOrEmpty(rows: 4, columns: 24)
        let radius = 1 / Double.pi
        for i in mesh.vertices.indices {
            let p = mesh.vertices[i].from
            let angle = (p.x - 0.5) * Double.pi
            mesh.vertices[i].to = Point3D(0.5 + radius * Double.sin(angle), p.y, radius * (Double.cos(angle) - 1))
        }
        mesh.depthNormalization = .width
        var transform = Transform3D.rotation(angle: Double.pi / 8, axis: SIMD3(0, 1, 0))
        transform.m34 = -1.0 / 1000
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(320, 240), transform: transform))
    }

    static func curl() -> MeshDocument {
        // Points past a fold line (perpendicular to the diagonal toward the bottom-right corner)
        // roll onto a cylinder of radius r above the page.
        var mesh = gridOrEmpty(rows: 16, columns: 16)
        let direction = SIMD2<Double>(1, 1) / 2.0.squareRoot()
        let fold = 0.9, radius = 0.12
        for i in mesh.vertices.indices {
            let p = mesh.vertices[i].from
            let d = (p * direction).sum() - fold
            guard d > 0 else { continue }
            let angle = d / radius
            let along = radius * Double.sin(angle) - d
            let xy = p + along * direction
            mesh.vertices[i].to = Point3D(xy.x, xy.y, radius * (1 - Double.cos(angle)))
        }
        mesh.depthNormalization = .min
        var transform = Transform3D.rotation(angle: -Double.pi / 10, axis: SIMD3(1, 0, 0))
        transform.m34 = -1.0 / 1200
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(300, 400), transform: transform))
    }

    static func split() -> MeshDocument {
        // Two disconnected 1 × 4 strips: the top half moved up and the bottom half down, leaving a gap.
        var vertices: [MeshVertex] = []
        var faces: [MeshFace] = []
        let columns = 4
        for (piece, shift) in [(0, -0.1), (1, 0.1)] {
            let base = vertices.count
            let y0 = 0.5 * Double(piece), y1 = y0 + 0.5
            for j in 0...columns {
                let x = Double(j) / Double(columns)
                vertices.append(MeshVertex(from: LayerPoint(x, y0), to: Point3D(x, y0 + shift, 0)))
            }
            for j in 0...columns {
                let x = Double(j) / Double(columns)
                vertices.append(MeshVertex(from: LayerPoint(x, y1), to: Point3D(x, y1 + shift, 0)))
            }
            for c in 0..<columns {
                faces.append(MeshFace(base + c, base + c + 1, base + columns + 2 + c, base + columns + 1 + c))
            }
        }
        let mesh = MeshTransform(unchecked: vertices, faces: faces, depthNormalization: .none, subdivisionSteps: .fixed(0))
        return MeshDocument(mesh: mesh, layer: LayerProperties(size: SIMD2(320, 320)))
    }

    static func gridOrEmpty(rows: Int, columns: Int) -> MeshTransform {
        (try? MeshTransform.identity(rows: rows, columns: columns)) ?? MeshTransform()
    }
}
