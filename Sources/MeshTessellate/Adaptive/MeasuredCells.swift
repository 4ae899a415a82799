/// Deviations measured in an earlier round of automatic steps, for the cells drawn the same way
/// since, so a round measures only the cells it redraws.
///
/// A cell's triangles depend on its kind, its grid's rates and the samples on its sides; the
/// sample points themselves depend only on their parameters. A round that only gives failing
/// cells a denser interior (``CellRates/searchInteriors(_:search:tolerance:)``)
/// changes no side, so every other cell is drawn exactly as before and its measured deviation
/// still holds. Any round that changes a rate measures everything again.
struct MeasuredCells {
    var deviations: [Double]
    /// Per cell: whether it is drawn as when `deviations` was measured.
    var unchanged: [Bool]

    func deviation(_ c: Int) -> Double? {
        c < unchanged.count && unchanged[c] ? deviations[c] : nil
    }
}
