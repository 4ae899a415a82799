import RealModule

/// A point of the layer in unit coordinates: (0,0) is the top-left corner, (1,1) the bottom-right, y down.
public typealias LayerPoint = SIMD2<Double>

/// A point or direction in 3D.
public typealias Point3D = SIMD3<Double>

@inlinable
func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    (a * b).sum()
}

@inlinable
func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}

@inlinable
func length(_ a: SIMD3<Double>) -> Double {
    Double.sqrt(dot(a, a))
}

public extension SIMD3 where Scalar == Double {
    /// The unit vector in this direction, or `fallback` when the length is zero or not finite.
    func normalized(or fallback: SIMD3<Double> = SIMD3(0, 0, 1)) -> SIMD3<Double> {
        let l = Double.sqrt((self * self).sum())
        guard l > 0, l.isFinite else { return fallback }
        return self / l
    }

    /// The cross product `self × other`.
    func cross(_ other: SIMD3<Double>) -> SIMD3<Double> {
        SurfaceKit.cross(self, other)
    }

    /// The dot product.
    func dot(_ other: SIMD3<Double>) -> Double {
        SurfaceKit.dot(self, other)
    }

    /// The Euclidean length.
    var length: Double { SurfaceKit.length(self) }
}
