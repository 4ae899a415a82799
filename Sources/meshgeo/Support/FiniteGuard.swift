import MeshTessellate

/// The last check before numbers computed from an input are written as text (hit lines): a value
/// that is not finite is refused (exit 65) rather than written as `nan` or `inf`. Inputs inside
/// the documented numeric range never fail it.
enum FiniteGuard {
    static func check(_ hit: ScreenHit, at point: SIMD2<Double>) throws {
        let values = [hit.from.x, hit.from.y, hit.to.x, hit.to.y, hit.to.z, hit.depth]
        guard values.allSatisfy(\.isFinite) else {
            throw Failure(
                .dataError,
                "the hit at (\(point.x), \(point.y)) has a value that is not finite "
                    + "(from \(hit.from.x), \(hit.from.y); to \(hit.to.x), \(hit.to.y), \(hit.to.z); depth \(hit.depth)); nothing was written"
            )
        }
    }
}
