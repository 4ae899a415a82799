/// Where the changed triangles of an edit go in a kept draw order, and which stretches of that
/// order are sorted again with them (see ``KeptExactOrder`` for why the result is a painter's order).
///
/// The changed triangles come in groups, the connected sets of their overlapping pairs. A group
/// must be drawn after every unchanged triangle behind one of its members and before every one
/// in front: those lie at the old places `behind` (the greatest is `hi`) and `front` (the least is
/// `lo`). When `hi < lo` the group fits between them as it is, at one place; otherwise the
/// stretch `lo...hi` of the old order is a window, sorted again together with the group.
enum EditBlocks {
    struct Group {
        /// The least old place of an unchanged triangle in front of a member (the order's
        /// length when none is), and the greatest of one behind (−1 when none is).
        var lo: Int
        var hi: Int
        /// An old place of a member: where the group stays when nothing forces it elsewhere.
        var home: Int
        var members: [Int32]
    }

    /// A block of the new order: the changed triangles `members` drawn just before old place
    /// `start` (`end == start − 1`), or the old places `start...end` sorted again together with
    /// `members`.
    struct Block: Equatable {
        var start: Int
        var end: Int
        var members: [Int32]

        var isWindow: Bool { end >= start }
    }

    /// The blocks for `groups` in an order of `count` places, ascending by `start`, windows
    /// disjoint, an insertion before a window that starts at the same place.
    ///
    /// Windows that share a place are joined (a place can be sorted only once); a group whose
    /// place falls inside a window, after its first place, joins that window: its unchanged
    /// triangles behind lie before the group's place and those in front at or after it, so in
    /// the window or on the right side of it either way.
    static func plan(_ groups: [Group], count: Int) -> [Block] {
        var windows: [Block] = []
        var insertions: [Block] = []
        for group in groups {
            if group.lo <= group.hi {
                windows.append(Block(start: group.lo, end: group.hi, members: group.members))
            } else {
                // Any place after every triangle behind and at or before every one in front.
                let place = min(max(group.home, group.hi + 1), group.lo)
                insertions.append(Block(start: place, end: place - 1, members: group.members))
            }
        }
        windows.sort { $0.start < $1.start }
        var joined: [Block] = []
        for window in windows {
            if let last = joined.last, window.start <= last.end {
                joined[joined.count - 1].end = max(last.end, window.end)
                joined[joined.count - 1].members += window.members
            } else {
                joined.append(window)
            }
        }
        var blocks: [Block] = []
        for insertion in insertions {
            // The last window starting before the place, if it reaches it.
            var lo = 0, hi = joined.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if joined[mid].start < insertion.start { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0, insertion.start <= joined[lo - 1].end {
                joined[lo - 1].members += insertion.members
            } else {
                blocks.append(insertion)
            }
        }
        blocks += joined
        blocks.sort { ($0.start, $0.isWindow ? 1 : 0) < ($1.start, $1.isWindow ? 1 : 0) }
        return blocks
    }
}
