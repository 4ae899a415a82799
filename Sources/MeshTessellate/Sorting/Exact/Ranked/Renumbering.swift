/// A few indices picked out of many (ranks or slots with edges), numbered 0, 1, … in ascending
/// order: the distinct values, sorted, and a binary search from a value to its number, so a
/// graph or union-find over them needs no array as long as all the items.
struct Renumbering {
    /// The distinct values, ascending; value `values[k]` has number k.
    private(set) var values: [Int32]

    init(_ picked: [Int32]) {
        var values = picked
        values.sort()
        var unique = 0
        for k in values.indices where k == 0 || values[k] != values[k - 1] {
            values[unique] = values[k]
            unique += 1
        }
        values.removeLast(values.count - unique)
        self.values = values
    }

    var count: Int { values.count }

    /// The number of `value`, which must be one of the values (else the number of the first
    /// value above it).
    @inline(__always)
    func number(of value: Int32) -> Int32 {
        var (lower, upper) = (0, values.count)
        while lower < upper {
            let middle = (lower + upper) / 2
            if values[middle] < value { lower = middle + 1 } else { upper = middle }
        }
        return Int32(lower)
    }
}
