import SurfaceKit

public extension Light {
    /// The brightness of a surface with screen-space normal `normal` (Docs/rendering.md, "The picture"):
    /// `(1 − k) + k·|n̂ · l̂|`, two-sided, clamped to 0…1 so a diffuse factor outside 0…1 cannot
    /// make a colour negative or overflow. A zero normal (a degenerate triangle) counts as edge-on.
    func intensity(normal: Point3D) -> Double {
        Light.intensity(normal: normal, toward: unitDirection, diffuse: diffuse)
    }
}

extension Light {
    /// The direction toward the light as a unit vector (+z for a zero vector).
    var unitDirection: Point3D {
        // Scaled by its largest component first so that huge but finite directions still normalise.
        let largest = Swift.max(abs(direction.x), abs(direction.y), abs(direction.z))
        return largest > 0 ? (direction / largest).normalized() : Point3D(0, 0, 1)
    }

    /// ``intensity(normal:)`` with the light's unit direction `l` computed once by the caller.
    @inline(__always)
    static func intensity(normal: Point3D, toward l: Point3D, diffuse: Double) -> Double {
        let largestN = Swift.max(abs(normal.x), abs(normal.y), abs(normal.z))
        let n = largestN > 0 && largestN.isFinite ? normal / largestN : Point3D.zero
        let length = (n * n).sum().squareRoot()
        let cosine = length > 0 ? abs((n * l).sum()) / length : 0
        let value = (1 - diffuse) + diffuse * Swift.min(1, cosine)
        return value.isFinite ? Swift.min(1, Swift.max(0, value)) : 0
    }
}

extension Light {
    /// A light needs a direction (the zero vector cannot be normalised) and finite numbers.
    func validateForShading(path: String) throws {
        let d = direction
        guard d.x.isFinite, d.y.isFinite, d.z.isFinite, d != .zero else {
            throw MeshError(
                .invalidValue, path: path.isEmpty ? "" : "\(path).direction",
                "the light direction [\(d.x), \(d.y), \(d.z)] must be a finite, non-zero vector")
        }
        guard diffuse.isFinite else {
            throw MeshError(
                .invalidValue, path: path.isEmpty ? "" : "\(path).diffuse", "the diffuse factor \(diffuse) is not a finite number")
        }
    }
}
