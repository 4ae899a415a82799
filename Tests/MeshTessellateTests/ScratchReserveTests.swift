import Testing

@testable import MeshTessellate

/// The scratch memory that sorts hand back and take again (`ScratchReserve`): what an earlier sort
/// wrote must never show through where a sort asks for memory that reads as zero.
struct ScratchReserveTests {
    @Test func zeroedScratchReadsZeroAfterADirtyOne() {
        let bytes = 3 << 20
        for _ in 0..<4 {
            // Written all over, then handed back (kept by the reserve on Linux).
            do {
                let dirty = SortScratch(bytes: bytes)
                dirty.buffer(of: UInt8.self, count: bytes).initialize(repeating: 0xA5)
            }
            let clean = SortScratch(bytes: bytes, zeroed: true)
            let contents = clean.buffer(of: UInt8.self, count: bytes)
            #expect(contents.allSatisfy { $0 == 0 })
            contents.initialize(repeating: 0x5A)
        }
    }

    @Test func aKeptMappingServesRequestsOfAboutItsSize() {
        let mib = 1 << 20
        // Large enough, and at most twice the request plus the slack.
        #expect(ScratchReserve.serves(10 * mib, request: 10 * mib))
        #expect(ScratchReserve.serves(24 * mib, request: 10 * mib))
        #expect(!ScratchReserve.serves(25 * mib, request: 10 * mib))
        #expect(!ScratchReserve.serves(10 * mib - 1, request: 10 * mib))
        // A small request never takes a large mapping.
        #expect(!ScratchReserve.serves(64 * mib, request: 1 * mib))
    }
}
