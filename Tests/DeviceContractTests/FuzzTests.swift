import APNsCore
import DeviceContract
import Foundation
import XCTest

/// No input makes the parser or the checker trap; and on mutated payloads the checker keeps agreeing
/// with JSONDecoder.
final class FuzzTests: XCTestCase {
    func testCheckerSurvivesRandomBytesAndTruncations() {
        var random = SplitMix64(seed: 1)
        for oracle in OracleModel.all {
            for event in LiveActivityEvent.allCases {
                let check = oracle.checker(.iso8601)
                for _ in 0..<300 {
                    let bytes = (0..<Int.random(in: 0..<400, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                    _ = check.check(payload: bytes, event: event)
                    let jsonish = (0..<Int.random(in: 0..<200, using: &random))
                        .map { _ in Array(#"{}[]",:0123456789-+.eEtrufalsn\ "#.utf8).randomElement(using: &random) ?? 0 }
                    _ = check.check(payload: jsonish, event: event)
                }
            }
        }
        for row in OracleTableTests.rows where row.failsAt == nil {
            let bytes = Array(row.payload.utf8)
            let check = OracleModel.named(row.model).checker(row.strategy)
            for length in 0...bytes.count {
                let failures = check.check(payload: bytes[0..<length], event: row.event)
                if length < bytes.count { XCTAssertFalse(failures.isEmpty, "a truncated payload cannot decode") }
            }
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertEqual(OracleModel.all[0].checker(.deferredToDate).check(payload: Array(deep.utf8), event: .update).first?.reason, .invalidJSON)
    }

    func testParserSurvivesRandomAndTruncatedSources() {
        var random = SplitMix64(seed: 2)
        let alphabet = Array("struct enum case let var { } ( ) [ ] < > : ; , = ? ! @ # \" \\ / * ` \n ActivityAttributes ContentState Codable Int String".utf8)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0..<300, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? 0 }
            _ = try? ModelDeclaration.parse(source: String(decoding: bytes, as: UTF8.self), file: "Fuzz.swift")
            let raw = (0..<Int.random(in: 0..<200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = try? ModelDeclaration.parse(source: String(decoding: raw, as: UTF8.self), file: "Fuzz.swift")
        }
        for oracle in OracleModel.all {
            let source = Array(oracle.source.utf8)
            for length in stride(from: 0, to: source.count, by: 3) {
                _ = try? ModelDeclaration.parse(source: String(decoding: source[0..<length], as: UTF8.self), file: "Fuzz.swift")
            }
            for _ in 0..<300 {
                var mutated = source
                let position = Int.random(in: 0..<mutated.count, using: &random)
                mutated[position] = alphabet.randomElement(using: &random) ?? 0
                _ = try? ModelDeclaration.parse(source: String(decoding: mutated, as: UTF8.self), file: "Fuzz.swift")
            }
        }
        let deepType = "struct A: ActivityAttributes { struct ContentState: Codable, Hashable { var x: "
            + String(repeating: "[", count: 10_000) + "Int" + String(repeating: "]", count: 10_000) + " } }"
        XCTAssertThrowsError(try ModelDeclaration.parse(source: deepType, file: "Deep.swift"))
    }

    /// Mutates every oracle payload many ways and compares the checker with JSONDecoder each time.
    func testMutatedPayloadsAgreeWithJSONDecoder() {
        var random = SplitMix64(seed: 3)
        let values = ["null", "true", "false", "0", "-0", "1", "-1", "1.5", "1e3", "1E-2", "1e400", "0e5", "01", "300", "-129",
                      "18446744073709551616", "9007199254740993.5", "\"\"", "\"x\"", "\"in_transit\"", "\"APPROVED\"",
                      "\"2025-04-16T10:04:52Z\"", "\"2025-04-16T10:04:52.5+07:00\"", "\"E0D62919-9EF2-49C6-A108-85A227AF3904\"",
                      "\"\\u00e9\"", "\"\\ud800\"", "\"\\x\"", "\"a\u{01}b\"", "[]", "[1,\"2\"]", "[null]", "{}", "{\"1\":\"a\"}", "{\"k\":1,}"]
        let bytePool = Array(#"{}[]",:0123456789-+.eE tnul\"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xE9, 0xFF]
        var compared = 0
        var disagreements: [String] = []
        for row in OracleTableTests.rows {
            let oracle = OracleModel.named(row.model)
            let check = oracle.checker(row.strategy)
            let base = Array(row.payload.utf8)
            for _ in 0..<60 {
                var bytes = base
                switch Int.random(in: 0..<6, using: &random) {
                case 0:
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = bytePool.randomElement(using: &random) ?? 0
                case 1:
                    bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random))
                case 2:
                    bytes.insert(bytePool.randomElement(using: &random) ?? 0, at: Int.random(in: 0...bytes.count, using: &random))
                default:
                    let colons = bytes.indices.filter { bytes[$0] == UInt8(ascii: ":") }
                    guard let colon = colons.randomElement(using: &random), let end = Self.valueEnd(bytes, from: colon + 1) else { continue }
                    bytes.replaceSubrange((colon + 1)..<end, with: Array((values.randomElement(using: &random) ?? "null").utf8))
                }
                // JSONDecoder transcodes UTF-16/32 input; APNs payloads are UTF-8, and so is the checker.
                if bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0 || (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE)) {
                    continue
                }
                let failures = check.check(payload: bytes, event: row.event)
                let decoder = oracle.decoderVerdict(bytes, event: row.event, strategy: row.strategy)
                compared += 1
                // Dictionaries decode in hash order, so JSONDecoder's first error may be any of the checker's.
                if !decoder.agrees(with: failures, expectedPath: nil, requireFirst: row.model != "Telemetry") {
                    disagreements.append("\(row.model) \(row.event)/\(row.strategy): \(String(decoding: bytes, as: UTF8.self))\n   checker: \(failures)\n   "
                        + "decoder: \(decoder) \(decoder.detail)")
                }
            }
        }
        print("differential fuzz: \(compared) mutated payloads compared, \(disagreements.count) disagreements")
        XCTAssertGreaterThan(compared, 4_000)
        XCTAssertTrue(disagreements.isEmpty, disagreements.prefix(10).joined(separator: "\n"))
    }

    /// The end of the JSON value starting at `start` (after optional whitespace), or nil.
    static func valueEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index < bytes.count else { return nil }
        var depth = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false; if depth == 0 { return index + 1 } }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return index }
                    depth -= 1
                    if depth == 0 { return index + 1 }
                case UInt8(ascii: ","):
                    if depth == 0 { return index }
                default: break
                }
            }
            index += 1
        }
        return nil
    }
}
