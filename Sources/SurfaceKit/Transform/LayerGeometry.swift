/// The three coordinate spaces of a mesh transform and the maps between them.
///
/// - unit: `to` as written in mesh.json, (0,0) top-left, (1,1) bottom-right, y down;
/// - points: `(x·W, y·H, z·D)`, D from the depth normalization;
/// - screen: points carried by the layer transform about the anchor, then divided by w.
public struct LayerGeometry: Hashable, Sendable {
    /// Homogeneous w at or below which geometry counts as at or behind the eye and is clipped.
    public static let clipW: Double = 1e-6

    public var size: SIMD2<Double>
    public var depthScale: Double
    public var anchor: LayerPoint
    public var transform: Transform3D

    public init(size: SIMD2<Double>, depthScale: Double, anchor: LayerPoint, transform: Transform3D) {
        self.size = size
        self.depthScale = depthScale
        self.anchor = anchor
        self.transform = transform
    }

    public init(layer: LayerProperties, depthNormalization: DepthNormalization) {
        self.init(
            size: layer.size,
            depthScale: depthNormalization.depthScale(for: layer.size),
            anchor: layer.anchor,
            transform: layer.transform)
    }

    /// Per-axis scale from unit to points space.
    @inlinable
    public var pointScale: SIMD3<Double> { SIMD3(size.x, size.y, depthScale) }

    /// The anchor's position in points (its z is 0, as `anchorPointZ`).
    @inlinable
    public var anchorInPoints: SIMD3<Double> { SIMD3(anchor.x * size.x, anchor.y * size.y, 0) }

    @inlinable
    public func pointsFromUnit(_ p: SIMD3<Double>) -> SIMD3<Double> { p * pointScale }

    /// `[p − a, 1] · M` for a points-space p: the homogeneous screen point before the divide.
    @inlinable
    public func clipCoordinates(ofPoints p: SIMD3<Double>) -> SIMD4<Double> {
        transform.applyHomogeneous(p - anchorInPoints)
    }

    /// The screen point of a points-space point, or `nil` when it is at or behind the eye.
    @inlinable
    public func screenFromPoints(_ p: SIMD3<Double>) -> SIMD3<Double>? {
        let h = clipCoordinates(ofPoints: p)
        guard h.w > LayerGeometry.clipW else { return nil }
        return SIMD3(h.x, h.y, h.z) / h.w + anchorInPoints
    }

    /// A points-space normal taken to unit space (inverse transpose of the scale), normalized.
    @inlinable
    public func unitNormal(fromPoints n: SIMD3<Double>) -> SIMD3<Double> {
        (n * pointScale).normalized()
    }

    /// A points-space normal taken through the linear part of the layer transform, normalized.
    @inlinable
    public func screenNormal(fromPoints n: SIMD3<Double>) -> SIMD3<Double> {
        transform.transformNormal(n).normalized()
    }
}
