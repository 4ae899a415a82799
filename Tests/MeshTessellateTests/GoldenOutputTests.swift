import SurfaceKit
import Testing

@testable import MeshTessellate

// Golden outputs: hashes of the tessellation, the depth order, the exact order, the sorted mesh and
// the reference pipeline's order of every bundled example, at fixed steps and every diagonal
// policy the command line offers, on one thread and on all cores. The values were recorded from
// the code before the sort was restructured; any change to them is a change to generated geometry
// (a breaking change), so it has to be made on purpose, with a new recording and a changelog entry.
// The hashes are of exact bit patterns, so they hold for one platform's libm (Linux, glibc), which
// the examples' sines and cosines go through.

@Suite struct GoldenOutputTests {
    /// One example, tessellated at `steps` with `diagonal`.
    struct Case: CustomStringConvertible, Sendable {
        var example: ExampleMesh
        var steps: Int
        var diagonal: DiagonalPolicy
        var description: String { "\(example.rawValue) s\(steps) \(diagonal.rawValue)" }
    }

    /// Every example at steps 2 and 3 with every diagonal, except the ripple (100 × 100 faces),
    /// which is taken at steps 1 with every diagonal and at steps 2 with the command line's default,
    /// and the lit ripple (a large grid too, recorded when it was added), at steps 1 with the default.
    static let cases: [Case] = {
        var cases: [Case] = []
        for example in ExampleMesh.allCases where example != .ripple && example != .lit {
            for steps in [2, 3] {
                for diagonal in DiagonalPolicy.allCases { cases.append(Case(example: example, steps: steps, diagonal: diagonal)) }
            }
        }
        for diagonal in DiagonalPolicy.allCases { cases.append(Case(example: .ripple, steps: 1, diagonal: diagonal)) }
        cases.append(Case(example: .ripple, steps: 2, diagonal: .shortest))
        cases.append(Case(example: .lit, steps: 1, diagonal: .shortest))
        return cases
    }()

    /// The hashes of one case's outputs, by name.
    static func outputs(of test: Case) throws -> [String: UInt64] {
        let document = test.example.document
        let options = TessellationOptions(steps: .fixed(test.steps), diagonal: test.diagonal)
        let mesh = try Tessellator.tessellate(document, options: options, space: .points)
        let geometry = document.geometry
        var result: [String: UInt64] = [:]
        result["tessellation"] = GoldenHash.of { $0.add(mesh) }
        let depth = try PainterSorter.depthOrder(mesh: mesh, geometry: geometry)
        result["depth"] = GoldenHash.of { h in
            h.add(depth != nil)
            h.add(depth ?? [])
        }
        let exact = try PainterSorter.exactOrder(mesh: mesh, geometry: geometry)
        result["exact"] = GoldenHash.of { h in
            h.add(exact != nil)
            h.add(exact ?? [])
        }
        let (sorted, statistics) = try PainterSorter.sorted(mesh: mesh, geometry: geometry, mode: .exact, space: .screen)
        result["sorted"] = GoldenHash.of { h in
            h.add(sorted)
            h.add(statistics.outputTriangles)
            h.add(statistics.overlappingPairs)
            h.add(statistics.crossingPairs)
            h.add(statistics.splitGroups)
            h.add(statistics.depthRanked)
        }
        result["reference"] = try GoldenHash.of { h in h.add(try referenceMesh(mesh, geometry: geometry)) }
        return result
    }

    /// The reference pipeline alone (every overlapping pair, the occlusion graph, a BSP tree per
    /// cycle), without the ranked fast path.
    static func referenceMesh(_ mesh: TriangleMesh, geometry: LayerGeometry) throws -> TriangleMesh {
        var pool = try SortPool(clipping: mesh, geometry: geometry)
        let occlusions = try #require(PairOcclusion.occlusions(screen: pool.screen, triangles: pool.triangles, limit: 1 << 26))
        let graph = OcclusionGraph(count: pool.triangles.count, back: occlusions.back, front: occlusions.front)
        let (component, members) = graph.cyclicComponents()
        var drawn: [[Int32]] = []
        for group in members {
            drawn.append(try ScreenBSP(cluster: group, pool: &pool, budget: 1 << 24).drawOrder())
        }
        let order = graph.order(component: component, members: members, drawn: drawn)
        return pool.mesh(order: order, triangles: pool.triangles, faces: pool.sourceFaces, space: .screen)
    }

    @Test(arguments: cases)
    func bundledExamplesGiveTheRecordedOutputsOnOneThreadAndOnAllCores(_ test: Case) throws {
        let serial = try ParallelLimit.withThreads(1) { try Self.outputs(of: test) }
        let parallel = try ParallelLimit.withThreads(ParallelLimit.activeCores) { try Self.outputs(of: test) }
        for name in ["tessellation", "depth", "exact", "sorted", "reference"] {
            let key = "\(test) \(name)"
            let recorded = Self.recorded[key]
            #expect(serial[name] == recorded, "\(key): \(String(serial[name] ?? 0, radix: 16)) on one thread")
            #expect(parallel[name] == recorded, "\(key): \(String(parallel[name] ?? 0, radix: 16)) on all cores")
        }
    }

    /// Recorded from the code before the restructuring (see the file's comment).
    static let recorded: [String: UInt64] = [
        "curl s2 center depth": 0x5057_342e_f1d3_1174,
        "curl s2 center exact": 0x0bcd_1355_5211_a1a8,
        "curl s2 center reference": 0xe26a_2442_5aa2_8fa7,
        "curl s2 center sorted": 0xba0e_b9ea_c0ec_df0b,
        "curl s2 center tessellation": 0xbdbc_cbc2_a734_6755,
        "curl s2 first depth": 0x7e9f_4289_7238_c300,
        "curl s2 first exact": 0xbb74_2de9_4739_fd70,
        "curl s2 first reference": 0x196f_f1ea_4945_6b2a,
        "curl s2 first sorted": 0x8107_b6c6_cc23_c09a,
        "curl s2 first tessellation": 0x6a99_66cf_f326_0616,
        "curl s2 second depth": 0x3a2c_c854_f307_b118,
        "curl s2 second exact": 0xc5e4_af88_dcfe_cc68,
        "curl s2 second reference": 0x7c47_7e8f_4c71_42da,
        "curl s2 second sorted": 0x0ad5_7ee4_fee1_911b,
        "curl s2 second tessellation": 0x1702_c578_9732_7046,
        "curl s2 shortest depth": 0x7e9f_4289_7238_c300,
        "curl s2 shortest exact": 0xbb74_2de9_4739_fd70,
        "curl s2 shortest reference": 0x196f_f1ea_4945_6b2a,
        "curl s2 shortest sorted": 0x8107_b6c6_cc23_c09a,
        "curl s2 shortest tessellation": 0x6a99_66cf_f326_0616,
        "curl s2 surface depth": 0x3a2c_c854_f307_b118,
        "curl s2 surface exact": 0xc5e4_af88_dcfe_cc68,
        "curl s2 surface reference": 0x858a_46da_205e_cc90,
        "curl s2 surface sorted": 0x9d98_d1ae_30d1_0d2d,
        "curl s2 surface tessellation": 0x5371_c525_225e_429c,
        "curl s3 center depth": 0xc7ba_65ff_167a_a485,
        "curl s3 center exact": 0x65ab_80a8_ba82_7af5,
        "curl s3 center reference": 0xb2b9_8741_711a_2a90,
        "curl s3 center sorted": 0x5407_26c2_0889_92bf,
        "curl s3 center tessellation": 0x8dc8_5fda_a2f4_008d,
        "curl s3 first depth": 0x8931_8b6d_e60b_bea8,
        "curl s3 first exact": 0x8002_9930_ce71_3184,
        "curl s3 first reference": 0x61ba_cc28_296a_9e52,
        "curl s3 first sorted": 0xa0c3_d7dd_c978_0bd6,
        "curl s3 first tessellation": 0xe9a6_e482_dbf5_f109,
        "curl s3 second depth": 0xf2da_1056_65a5_897c,
        "curl s3 second exact": 0x18a0_95cc_3780_8b5c,
        "curl s3 second reference": 0xbdc5_d16c_7c6b_5616,
        "curl s3 second sorted": 0x3fbf_8c09_181c_fd8d,
        "curl s3 second tessellation": 0xaad6_6101_b578_83f9,
        "curl s3 shortest depth": 0x8931_8b6d_e60b_bea8,
        "curl s3 shortest exact": 0x8002_9930_ce71_3184,
        "curl s3 shortest reference": 0x61ba_cc28_296a_9e52,
        "curl s3 shortest sorted": 0xa0c3_d7dd_c978_0bd6,
        "curl s3 shortest tessellation": 0xe9a6_e482_dbf5_f109,
        "curl s3 surface depth": 0xf2da_1056_65a5_897c,
        "curl s3 surface exact": 0x18a0_95cc_3780_8b5c,
        "curl s3 surface reference": 0x70a0_b562_1209_480c,
        "curl s3 surface sorted": 0x8b05_a9a1_d524_b593,
        "curl s3 surface tessellation": 0x12ec_3076_1046_351b,
        "cylinder s2 center depth": 0x13b0_f566_8e64_c0fc,
        "cylinder s2 center exact": 0x1b97_d5a3_3769_a510,
        "cylinder s2 center reference": 0x0221_9977_1b10_b227,
        "cylinder s2 center sorted": 0x4898_9101_35fe_ce8a,
        "cylinder s2 center tessellation": 0x27d9_66b0_66aa_6741,
        "cylinder s2 first depth": 0xc8aa_3152_8878_bc68,
        "cylinder s2 first exact": 0x1a20_ca46_d371_f438,
        "cylinder s2 first reference": 0x368a_ea50_2e24_27d1,
        "cylinder s2 first sorted": 0x17c9_ad96_c2b6_d6a4,
        "cylinder s2 first tessellation": 0x7e94_288a_de39_125b,
        "cylinder s2 second depth": 0xa96f_3565_d063_5500,
        "cylinder s2 second exact": 0x1a20_ca46_d371_f438,
        "cylinder s2 second reference": 0x6e6a_c00e_503f_6b31,
        "cylinder s2 second sorted": 0xe5c0_056a_e962_b1fc,
        "cylinder s2 second tessellation": 0x034d_b3a0_9cd7_17c3,
        "cylinder s2 shortest depth": 0xc8aa_3152_8878_bc68,
        "cylinder s2 shortest exact": 0x1a20_ca46_d371_f438,
        "cylinder s2 shortest reference": 0x368a_ea50_2e24_27d1,
        "cylinder s2 shortest sorted": 0x17c9_ad96_c2b6_d6a4,
        "cylinder s2 shortest tessellation": 0x7e94_288a_de39_125b,
        "cylinder s2 surface depth": 0xc8aa_3152_8878_bc68,
        "cylinder s2 surface exact": 0x1a20_ca46_d371_f438,
        "cylinder s2 surface reference": 0x368a_ea50_2e24_27d1,
        "cylinder s2 surface sorted": 0x17c9_ad96_c2b6_d6a4,
        "cylinder s2 surface tessellation": 0x7e94_288a_de39_125b,
        "cylinder s3 center depth": 0xbe9c_cacc_0bcf_ed6c,
        "cylinder s3 center exact": 0x62b2_0a85_d3d0_2610,
        "cylinder s3 center reference": 0x6eb7_dd93_8533_e4a5,
        "cylinder s3 center sorted": 0x51b7_0d25_806d_ff30,
        "cylinder s3 center tessellation": 0xdee7_5648_014c_1182,
        "cylinder s3 first depth": 0x2f67_9856_fef5_7b84,
        "cylinder s3 first exact": 0xd9d4_26e0_fda2_491c,
        "cylinder s3 first reference": 0x1667_f0b1_34a2_eb34,
        "cylinder s3 first sorted": 0xc854_2a91_caa6_9075,
        "cylinder s3 first tessellation": 0x1146_66a9_08ba_0b0a,
        "cylinder s3 second depth": 0x2aeb_80e8_ce80_8d94,
        "cylinder s3 second exact": 0x9f1a_39f3_c21e_f080,
        "cylinder s3 second reference": 0x3258_ce97_3220_ed08,
        "cylinder s3 second sorted": 0x17a1_631e_24cf_96cd,
        "cylinder s3 second tessellation": 0x8d55_4fc4_1e12_cf0e,
        "cylinder s3 shortest depth": 0x2f67_9856_fef5_7b84,
        "cylinder s3 shortest exact": 0xd9d4_26e0_fda2_491c,
        "cylinder s3 shortest reference": 0x1667_f0b1_34a2_eb34,
        "cylinder s3 shortest sorted": 0xc854_2a91_caa6_9075,
        "cylinder s3 shortest tessellation": 0x1146_66a9_08ba_0b0a,
        "cylinder s3 surface depth": 0x2f67_9856_fef5_7b84,
        "cylinder s3 surface exact": 0xd9d4_26e0_fda2_491c,
        "cylinder s3 surface reference": 0x1667_f0b1_34a2_eb34,
        "cylinder s3 surface sorted": 0xc854_2a91_caa6_9075,
        "cylinder s3 surface tessellation": 0x1146_66a9_08ba_0b0a,
        "lit s1 shortest depth": 0x5640_e39f_b927_6c10,
        "lit s1 shortest exact": 0x30ba_b7c9_3003_9384,
        "lit s1 shortest reference": 0x18cc_b768_0166_70d4,
        "lit s1 shortest sorted": 0xf4b2_3885_1ee3_d2d5,
        "lit s1 shortest tessellation": 0xf4d0_c097_43ec_502a,
        "ripple s1 center depth": 0x4b97_d305_39b2_31f1,
        "ripple s1 center exact": 0xe20b_a70f_e81f_40d5,
        "ripple s1 center reference": 0x9058_dde3_b48d_670a,
        "ripple s1 center sorted": 0x2f50_7c38_c07e_182f,
        "ripple s1 center tessellation": 0xca16_5fc3_f46e_e04e,
        "ripple s1 first depth": 0x5986_320c_46f9_ec71,
        "ripple s1 first exact": 0x7c0f_5b4d_8566_08a5,
        "ripple s1 first reference": 0x275a_d30a_80fb_bdab,
        "ripple s1 first sorted": 0x62da_d0af_e287_bd03,
        "ripple s1 first tessellation": 0x1ac2_afc1_2781_a545,
        "ripple s1 second depth": 0x47aa_70f7_3fd0_40b1,
        "ripple s1 second exact": 0x5ff3_3e19_80b1_4f79,
        "ripple s1 second reference": 0xf20d_0cd4_07c6_fe4f,
        "ripple s1 second sorted": 0xbc52_f786_b726_67eb,
        "ripple s1 second tessellation": 0x5bcf_1b41_d052_ae0d,
        "ripple s1 shortest depth": 0xdf38_7859_98bb_16d5,
        "ripple s1 shortest exact": 0xd234_87bd_863a_e7d5,
        "ripple s1 shortest reference": 0xea1f_2d01_44c8_1f7e,
        "ripple s1 shortest sorted": 0xde2f_141b_835c_b122,
        "ripple s1 shortest tessellation": 0x7079_7778_c707_1484,
        "ripple s1 surface depth": 0x0a5c_5947_caff_5c79,
        "ripple s1 surface exact": 0xedcf_4cdc_72cb_44f5,
        "ripple s1 surface reference": 0xbff0_1368_92ce_5c93,
        "ripple s1 surface sorted": 0xdd5d_d856_b9bd_3f58,
        "ripple s1 surface tessellation": 0x7294_56be_dd0f_8e21,
        "ripple s2 shortest depth": 0x7bca_09ad_0a50_675e,
        "ripple s2 shortest exact": 0xcdba_3ccb_ac63_7ea6,
        "ripple s2 shortest reference": 0xebf7_39e4_96f5_b40b,
        "ripple s2 shortest sorted": 0xd2e0_9998_4707_baf5,
        "ripple s2 shortest tessellation": 0x3430_7a30_24b5_ee97,
        "skew s2 center depth": 0xf7c6_8c26_0340_2664,
        "skew s2 center exact": 0xf7c6_8c26_0340_2664,
        "skew s2 center reference": 0x363c_daca_bbdc_4e87,
        "skew s2 center sorted": 0x4c6f_5e4c_df3f_f706,
        "skew s2 center tessellation": 0xdd8b_1357_dfd6_f0fc,
        "skew s2 first depth": 0x3629_8b52_d241_5004,
        "skew s2 first exact": 0x3629_8b52_d241_5004,
        "skew s2 first reference": 0xd455_35fa_fabc_8925,
        "skew s2 first sorted": 0x0ab7_1042_b029_e404,
        "skew s2 first tessellation": 0xf4d0_32cf_7fe5_878a,
        "skew s2 second depth": 0x3629_8b52_d241_5004,
        "skew s2 second exact": 0x3629_8b52_d241_5004,
        "skew s2 second reference": 0x5480_0799_4a15_bd45,
        "skew s2 second sorted": 0x6b77_44cd_f785_9464,
        "skew s2 second tessellation": 0xe32e_eb70_cc65_b7ea,
        "skew s2 shortest depth": 0x3629_8b52_d241_5004,
        "skew s2 shortest exact": 0x3629_8b52_d241_5004,
        "skew s2 shortest reference": 0xd455_35fa_fabc_8925,
        "skew s2 shortest sorted": 0x0ab7_1042_b029_e404,
        "skew s2 shortest tessellation": 0xf4d0_32cf_7fe5_878a,
        "skew s2 surface depth": 0x3629_8b52_d241_5004,
        "skew s2 surface exact": 0x3629_8b52_d241_5004,
        "skew s2 surface reference": 0xd455_35fa_fabc_8925,
        "skew s2 surface sorted": 0x0ab7_1042_b029_e404,
        "skew s2 surface tessellation": 0xf4d0_32cf_7fe5_878a,
        "skew s3 center depth": 0xd8e7_b4bb_a97b_e6ff,
        "skew s3 center exact": 0xd8e7_b4bb_a97b_e6ff,
        "skew s3 center reference": 0xa9a7_b039_cb33_9b57,
        "skew s3 center sorted": 0x7097_1ce1_a84e_517d,
        "skew s3 center tessellation": 0x2d17_e616_5c3b_1298,
        "skew s3 first depth": 0x9125_ec26_53c0_5ba4,
        "skew s3 first exact": 0x9125_ec26_53c0_5ba4,
        "skew s3 first reference": 0x513a_982e_fe65_0f7c,
        "skew s3 first sorted": 0x6204_ee7d_28d3_ef9d,
        "skew s3 first tessellation": 0x4e65_d6b2_9a6c_49ff,
        "skew s3 second depth": 0x9125_ec26_53c0_5ba4,
        "skew s3 second exact": 0x9125_ec26_53c0_5ba4,
        "skew s3 second reference": 0xaa50_6e22_b6c1_129c,
        "skew s3 second sorted": 0xf9a5_fb57_7238_85bd,
        "skew s3 second tessellation": 0x44e8_dc29_e7f3_731f,
        "skew s3 shortest depth": 0x9125_ec26_53c0_5ba4,
        "skew s3 shortest exact": 0x9125_ec26_53c0_5ba4,
        "skew s3 shortest reference": 0x513a_982e_fe65_0f7c,
        "skew s3 shortest sorted": 0x6204_ee7d_28d3_ef9d,
        "skew s3 shortest tessellation": 0x4e65_d6b2_9a6c_49ff,
        "skew s3 surface depth": 0x9125_ec26_53c0_5ba4,
        "skew s3 surface exact": 0x9125_ec26_53c0_5ba4,
        "skew s3 surface reference": 0x513a_982e_fe65_0f7c,
        "skew s3 surface sorted": 0x6204_ee7d_28d3_ef9d,
        "skew s3 surface tessellation": 0x4e65_d6b2_9a6c_49ff,
        "split s2 center depth": 0xd1b0_cef5_516f_4eda,
        "split s2 center exact": 0xd1b0_cef5_516f_4eda,
        "split s2 center reference": 0x60ce_6493_671a_7d1b,
        "split s2 center sorted": 0xdc1d_863a_2bed_a290,
        "split s2 center tessellation": 0x1996_a28f_372a_0a75,
        "split s2 first depth": 0xd8e7_b4bb_a97b_e6ff,
        "split s2 first exact": 0xd8e7_b4bb_a97b_e6ff,
        "split s2 first reference": 0xb3ce_74d7_a748_b6a0,
        "split s2 first sorted": 0x337a_5d57_5bcd_d0da,
        "split s2 first tessellation": 0x8011_bed5_9daf_c342,
        "split s2 second depth": 0xd8e7_b4bb_a97b_e6ff,
        "split s2 second exact": 0xd8e7_b4bb_a97b_e6ff,
        "split s2 second reference": 0x0207_4897_bae7_4ad0,
        "split s2 second sorted": 0x2de8_38e4_070d_e30a,
        "split s2 second tessellation": 0x0147_1ed2_c59d_f472,
        "split s2 shortest depth": 0xd8e7_b4bb_a97b_e6ff,
        "split s2 shortest exact": 0xd8e7_b4bb_a97b_e6ff,
        "split s2 shortest reference": 0xb3ce_74d7_a748_b6a0,
        "split s2 shortest sorted": 0x337a_5d57_5bcd_d0da,
        "split s2 shortest tessellation": 0x8011_bed5_9daf_c342,
        "split s2 surface depth": 0xd8e7_b4bb_a97b_e6ff,
        "split s2 surface exact": 0xd8e7_b4bb_a97b_e6ff,
        "split s2 surface reference": 0xb3ce_74d7_a748_b6a0,
        "split s2 surface sorted": 0x337a_5d57_5bcd_d0da,
        "split s2 surface tessellation": 0x8011_bed5_9daf_c342,
        "split s3 center depth": 0x9b43_e1b7_c6a0_f94c,
        "split s3 center exact": 0x9b43_e1b7_c6a0_f94c,
        "split s3 center reference": 0xebca_9829_e649_bfb0,
        "split s3 center sorted": 0x1211_f5d2_0230_baa9,
        "split s3 center tessellation": 0x6f13_aeb7_9cf3_590e,
        "split s3 first depth": 0xf05a_6a49_3f0a_71b8,
        "split s3 first exact": 0xf05a_6a49_3f0a_71b8,
        "split s3 first reference": 0xedec_a0a3_2b87_de96,
        "split s3 first sorted": 0xc5a1_625c_1dec_83e3,
        "split s3 first tessellation": 0x6f60_8788_e100_928c,
        "split s3 second depth": 0xf05a_6a49_3f0a_71b8,
        "split s3 second exact": 0xf05a_6a49_3f0a_71b8,
        "split s3 second reference": 0x8a6d_dc48_400f_369a,
        "split s3 second sorted": 0x0e8a_1bbc_4615_438f,
        "split s3 second tessellation": 0x9772_02b6_775a_2c98,
        "split s3 shortest depth": 0xf05a_6a49_3f0a_71b8,
        "split s3 shortest exact": 0xf05a_6a49_3f0a_71b8,
        "split s3 shortest reference": 0xedec_a0a3_2b87_de96,
        "split s3 shortest sorted": 0xc5a1_625c_1dec_83e3,
        "split s3 shortest tessellation": 0x6f60_8788_e100_928c,
        "split s3 surface depth": 0xf05a_6a49_3f0a_71b8,
        "split s3 surface exact": 0xf05a_6a49_3f0a_71b8,
        "split s3 surface reference": 0xedec_a0a3_2b87_de96,
        "split s3 surface sorted": 0xc5a1_625c_1dec_83e3,
        "split s3 surface tessellation": 0x6f60_8788_e100_928c,
        "wavy s2 center depth": 0xf714_c83f_9d88_dc02,
        "wavy s2 center exact": 0xf714_c83f_9d88_dc02,
        "wavy s2 center reference": 0x2554_aaad_6e15_109f,
        "wavy s2 center sorted": 0x2b2b_5305_ef59_cdbc,
        "wavy s2 center tessellation": 0x87af_9170_f7f6_30fd,
        "wavy s2 first depth": 0x9991_1f07_1c28_5093,
        "wavy s2 first exact": 0x9991_1f07_1c28_5093,
        "wavy s2 first reference": 0x9a0b_ced4_f165_5709,
        "wavy s2 first sorted": 0x6737_b9d9_681a_71db,
        "wavy s2 first tessellation": 0x1e4c_24ce_fb5d_04b6,
        "wavy s2 second depth": 0x9991_1f07_1c28_5093,
        "wavy s2 second exact": 0x9991_1f07_1c28_5093,
        "wavy s2 second reference": 0x34fa_7b2c_f61b_bbf9,
        "wavy s2 second sorted": 0x0a9f_4bfb_c468_4ccb,
        "wavy s2 second tessellation": 0x1c82_35d0_c89e_8246,
        "wavy s2 shortest depth": 0x9991_1f07_1c28_5093,
        "wavy s2 shortest exact": 0x9991_1f07_1c28_5093,
        "wavy s2 shortest reference": 0xcd9b_4f3f_796f_ca03,
        "wavy s2 shortest sorted": 0xf7de_5bb8_e4eb_2515,
        "wavy s2 shortest tessellation": 0x3531_df47_a262_3394,
        "wavy s2 surface depth": 0x9991_1f07_1c28_5093,
        "wavy s2 surface exact": 0x9991_1f07_1c28_5093,
        "wavy s2 surface reference": 0x4a53_df4f_b00d_5531,
        "wavy s2 surface sorted": 0x0cea_ee48_ab75_5903,
        "wavy s2 surface tessellation": 0x9b28_fdf8_01aa_724e,
        "wavy s3 center depth": 0xda9d_69e3_5d1f_adec,
        "wavy s3 center exact": 0xda9d_69e3_5d1f_adec,
        "wavy s3 center reference": 0x94e2_c219_3762_4443,
        "wavy s3 center sorted": 0xa89a_f185_3173_fa8a,
        "wavy s3 center tessellation": 0x5303_6427_a9d7_e085,
        "wavy s3 first depth": 0xe72b_86a9_ed56_7d68,
        "wavy s3 first exact": 0xe72b_86a9_ed56_7d68,
        "wavy s3 first reference": 0x89c5_b128_f8b0_8d9e,
        "wavy s3 first sorted": 0x8b12_7b37_73fd_623b,
        "wavy s3 first tessellation": 0xfd5d_be4d_4a07_6e44,
        "wavy s3 second depth": 0xe72b_86a9_ed56_7d68,
        "wavy s3 second exact": 0xe72b_86a9_ed56_7d68,
        "wavy s3 second reference": 0x9a02_5550_12cd_9566,
        "wavy s3 second sorted": 0xfeaf_fa9b_c8fd_9703,
        "wavy s3 second tessellation": 0x11fe_c924_6b1d_ffdc,
        "wavy s3 shortest depth": 0xe72b_86a9_ed56_7d68,
        "wavy s3 shortest exact": 0xe72b_86a9_ed56_7d68,
        "wavy s3 shortest reference": 0xeccd_7951_edec_a318,
        "wavy s3 shortest sorted": 0x1fc1_cc4a_6286_5355,
        "wavy s3 shortest tessellation": 0x8384_3bed_2b1f_476a,
        "wavy s3 surface depth": 0xe72b_86a9_ed56_7d68,
        "wavy s3 surface exact": 0xe72b_86a9_ed56_7d68,
        "wavy s3 surface reference": 0x545b_ec1d_97a4_9622,
        "wavy s3 surface sorted": 0xe417_f451_726e_2dc7,
        "wavy s3 surface tessellation": 0xa52d_e31e_bbc8_f3d8,
    ]
}
