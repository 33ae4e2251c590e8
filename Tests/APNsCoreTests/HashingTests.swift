import APNsCore
import XCTest

/// Known outputs of the one SplitMix64 and the one FNV-1a, computed with the copies they replaced
/// (Replay's SplitMix64, the simulator's SeededRandom, the engine's worker hash): a change here changes
/// every generated recording, the simulator's dice and dead tokens, and the engine's worker partition.
final class HashingTests: XCTestCase {
    func testSplitMix64Sequences() {
        var zero = SplitMix64(seed: 0)
        XCTAssertEqual((0..<3).map { _ in zero.next() }, [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var r = SplitMix64(seed: 42)
        XCTAssertEqual((0..<3).map { _ in r.next() }, [0xBDD7_3226_2FEB_6E95, 0x28EF_E333_B266_F103, 0x4752_6757_130F_9F52])
        XCTAssertEqual(r.unit(), 0.34419071652363753)
        XCTAssertEqual(SplitMix64.mix(0), 0)
        XCTAssertEqual(SplitMix64.mix(1), 0x5692_161D_100B_05E5)
        XCTAssertEqual(SplitMix64.mix(0xDEAD_BEEF), 0x4E06_2702_EC92_9EEA)
    }

    func testUnitIsInTheHalfOpenInterval() {
        var r = SplitMix64(seed: 7)
        for _ in 0..<10_000 { XCTAssertTrue((0..<1).contains(r.unit())) }
    }

    /// The simulator's dead-token hash: FNV-1a from the basis XOR the seed, hex digits folded, then `mix`.
    func testSeededHexFoldingHash() {
        func hash(_ s: String, seed: UInt64) -> UInt64 {
            SplitMix64.mix(FNV1a.hash(Array(s.utf8), basis: FNV1a.offsetBasis ^ seed, folding: .hexDigits))
        }
        let token = String(repeating: "ab", count: 32)
        let table: [(String, UInt64, UInt64)] = [
            ("", 0, 0xF52A_15E9_A9B5_E89B), ("", 7, 0xF121_E776_47E3_E933),
            ("a", 0, 0x02C0_BDBF_4814_20F8), ("a", 7, 0xD8A6_8854_5FF4_1755),
            (token, 0, 0x3F98_DEA8_673A_C68B), (token.uppercased(), 0, 0x3F98_DEA8_673A_C68B), (token, 7, 0x5663_EEED_F6A3_4DF9),
            ("XYZ", 0, 0xC6E4_4CC2_AD49_E544), ("xyz", 0, 0xFF3A_E43D_AD27_1856), // only A-F fold
            ("0123456789ABCDEFGHIJ", 0, 0x3F60_B0F0_D854_F937),
        ]
        for (text, seed, expected) in table { XCTAssertEqual(hash(text, seed: seed), expected, "\(text) seed \(seed)") }
    }

    /// The engine's worker hash: FNV-1a with A-Z folded, then MurmurHash3's fmix64 (kept in WorkerPool).
    func testLetterFoldingHash() {
        func fmix64(_ x: UInt64) -> UInt64 {
            var h = x
            h ^= h >> 33
            h = h &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 33
            h = h &* 0xC4CE_B9FE_1A85_EC53
            h ^= h >> 33
            return h
        }
        let token = String(repeating: "ab", count: 32)
        let table: [(String, UInt64)] = [
            ("", 0xEFD0_1F60_BA99_2926), ("a", 0x82A2_A958_A9BE_CE5B), (token, 0x8F9F_BD4B_4A8C_EDB1),
            (token.uppercased(), 0x8F9F_BD4B_4A8C_EDB1), ("XYZ", 0x8911_035B_39E3_9931), ("xyz", 0x8911_035B_39E3_9931),
            ("0123456789ABCDEFGHIJ", 0x443A_1207_B636_2592),
        ]
        for (text, expected) in table { XCTAssertEqual(fmix64(FNV1a.hash(Array(text.utf8), folding: .letters)), expected, text) }
        // Unfolded, case matters.
        XCTAssertNotEqual(FNV1a.hash(Array("AB".utf8)), FNV1a.hash(Array("ab".utf8)))
        XCTAssertEqual(FNV1a.hash([UInt8]()), FNV1a.offsetBasis)
    }
}
