/// The range of input numbers within which every result is finite: surface points, normals,
/// screen coordinates, pictures and hit points.
///
/// mesh.json accepts any finite number, but a `Double` runs out long before that: a coordinate of
/// 1e307 times a layer size of 100 is infinite in points, and weights that differ by more than
/// the precision of a `Double` (2⁵³ ≈ 9·10¹⁵) make the lighter vertices vanish from the rational
/// surface's sums, which then has no tangent plane. Inside these limits every intermediate value
/// stays far from overflow and underflow (the argument is in ``checkNumericRange()``), so
/// commands check them before any work and refuse the input, naming the number, otherwise.
///
/// The limits are generous for real layers: coordinates of a billion layer sizes, layers of a
/// billion points, weights that differ by a factor of a million.
public enum NumericRange {
    /// The largest magnitude of a vertex coordinate (`from` and `to`, unit coordinates) and of the
    /// anchor. Positions are convex combinations of control points, so the surface stays within
    /// it too.
    public static let maximumCoordinate = 1e9
    /// The largest layer side in points.
    public static let maximumLayerSize = 1e9
    /// The smallest layer side in points: below it, squared lengths in points (normals, areas)
    /// would underflow.
    public static let minimumLayerSize = 1e-9
    /// The largest magnitude of a layer transform entry.
    public static let maximumTransformEntry = 1e9
    /// The largest ratio of the mesh's largest weight to its smallest. A face's weight is felt
    /// in proportion to it; past about 2⁵³ the lighter vertices drop out of the sums altogether.
    /// A million leaves the lightest vertex ten digits of precision.
    public static let maximumWeightRatio = 1e6
    /// Every weight lies in this range, so that homogeneous values (weight × coordinate) and
    /// their products stay far from overflow and underflow.
    public static let weightMagnitudes: ClosedRange<Double> = 1e-100...1e100

    /// A limit as messages write it: `1e9` rather than `1000000000.0`.
    static func text(_ limit: Double) -> String {
        let exponent = Double.log10(limit).rounded()
        guard limit == Double.pow(10, exponent) else { return "\(limit)" }
        return "1e\(Int(exponent))"
    }
}

public extension MeshDocument {
    /// Throws `.invalidValue`, naming the JSON path of the first number outside ``NumericRange``
    /// (a coordinate, the layer's size, anchor or transform, or the weight farthest from the
    /// others when their ratio is too large). A document that passes ``validate()`` and this
    /// check tessellates, sorts, hit-tests and renders to finite numbers only.
    ///
    /// Why the limits suffice: points-space coordinates are at most 10⁹ × 10⁹ = 10¹⁸; the
    /// transform's 16 products add up to under 10²⁹, and the perspective divide by w ≥ the clip
    /// bound keeps screen coordinates under 10³⁵; squared lengths, cross products and the sort's
    /// orientation tests (products of three differences) stay under 10¹⁰⁸, far below the largest
    /// `Double` (1.8·10³⁰⁸) and, for glTF, below the largest `Float` (3.4·10³⁸) for positions.
    /// Weights in 10^±100 with a ratio of at most 10⁶ keep weight × coordinate under 10¹⁰⁹ and
    /// make every vertex count in the rational sums.
    func checkNumericRange() throws {
        try mesh.checkNumericRange()
        try layer.checkNumericRange()
    }
}

public extension MeshTransform {
    /// The mesh's part of ``MeshDocument/checkNumericRange()``: coordinates and weights.
    func checkNumericRange() throws {
        let limit = NumericRange.maximumCoordinate
        for (i, v) in vertices.enumerated() {
            let largest = Swift.max(abs(v.from.x), abs(v.from.y), abs(v.to.x), abs(v.to.y), abs(v.to.z))
            guard largest <= limit else {
                for k in 0..<2 where !(abs(v.from[k]) <= limit) {
                    throw NumericRange.outOfRange(path: "vertices[\(i)].from[\(k)]", v.from[k], "a coordinate's magnitude", limit)
                }
                for k in 0..<3 where !(abs(v.to[k]) <= limit) {
                    throw NumericRange.outOfRange(path: "vertices[\(i)].to[\(k)]", v.to[k], "a coordinate's magnitude", limit)
                }
                continue
            }
        }
        var smallest = Double.infinity, largest = 0.0
        for face in faces {
            smallest = Swift.min(smallest, face.weights.min())
            largest = Swift.max(largest, face.weights.max())
        }
        guard !faces.isEmpty else { return }
        let magnitudes = NumericRange.weightMagnitudes
        if !magnitudes.contains(smallest) || !magnitudes.contains(largest) {
            for (f, face) in faces.enumerated() {
                for k in 0..<4 where !magnitudes.contains(face.weights[k]) {
                    let range = "\(NumericRange.text(magnitudes.lowerBound))…\(NumericRange.text(magnitudes.upperBound))"
                    throw MeshError(
                        .invalidValue, path: "faces[\(f)].w[\(k)]",
                        "weight \(face.weights[k]) is outside \(range), the weights for which results stay finite")
                }
            }
        }
        guard largest <= smallest * NumericRange.maximumWeightRatio else {
            throw weightRatioError(smallest: smallest, largest: largest)
        }
    }

    /// Blames the extreme weight farther (by ratio) from the median weight: the one on its own.
    private func weightRatioError(smallest: Double, largest: Double) -> MeshError {
        let all = faces.flatMap { [$0.weights[0], $0.weights[1], $0.weights[2], $0.weights[3]] }.sorted()
        let median = all[all.count / 2]
        let blameLargest = largest / median >= median / smallest
        let culprit = blameLargest ? largest : smallest
        let other = blameLargest ? smallest : largest
        for (f, face) in faces.enumerated() {
            for k in 0..<4 where face.weights[k] == culprit {
                let ratio = NumericRange.text(NumericRange.maximumWeightRatio)
                return MeshError(
                    .invalidValue, path: "faces[\(f)].w[\(k)]",
                    "weight \(culprit) and weight \(other) elsewhere in the mesh differ by more than a factor of \(ratio), "
                        + "the most for which results stay finite")
            }
        }
        return MeshError(
            .invalidValue, path: "faces", "weights differ by more than a factor of \(NumericRange.text(NumericRange.maximumWeightRatio))")
    }
}

public extension LayerProperties {
    /// The layer's part of ``MeshDocument/checkNumericRange()``: size, anchor and transform.
    func checkNumericRange() throws {
        for k in 0..<2 where !(size[k] <= NumericRange.maximumLayerSize && size[k] >= NumericRange.minimumLayerSize) {
            let range = "\(NumericRange.text(NumericRange.minimumLayerSize))…\(NumericRange.text(NumericRange.maximumLayerSize))"
            throw MeshError(
                .invalidValue, path: "layer.size[\(k)]",
                "\(size[k]) is outside \(range), the layer sizes in points for which results stay finite")
        }
        for k in 0..<2 where !(abs(anchor[k]) <= NumericRange.maximumCoordinate) {
            throw NumericRange.outOfRange(path: "layer.anchor[\(k)]", anchor[k], "the anchor's magnitude", NumericRange.maximumCoordinate)
        }
        for (k, m) in transform.elements.enumerated() where !(abs(m) <= NumericRange.maximumTransformEntry) {
            throw NumericRange.outOfRange(
                path: "layer.transform[\(k)]", m, "a transform entry's magnitude", NumericRange.maximumTransformEntry)
        }
    }
}

extension NumericRange {
    static func outOfRange(path: String, _ value: Double, _ what: String, _ limit: Double) -> MeshError {
        MeshError(
            .invalidValue, path: path,
            "\(value) is too large: \(what) must be at most \(text(limit)) for results to stay finite")
    }
}
