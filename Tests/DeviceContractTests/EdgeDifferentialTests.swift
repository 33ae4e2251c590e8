import APNsCore
import DeviceContract
import Foundation
import XCTest

/// Numbers, strings, UUIDs and keys at the edges, each judged by the checker and by JSONDecoder.
final class EdgeDifferentialTests: XCTestCase {
    private let telemetry = OracleModel.named("Telemetry")

    /// Compares one telemetry content-state field holding `value`; returns a description on disagreement.
    private func compare(field: String, value: String, strategy: DateStrategy = .deferredToDate, also: [String: String] = [:]) -> String? {
        let payload = Array(OracleTableTests.telemetry(also.merging([field: value]) { $1 }).utf8)
        let failures = telemetry.checker(strategy).check(payload: payload, event: .update)
        let decoder = telemetry.decoderVerdict(payload, event: .update, strategy: strategy)
        // Where JSONDecoder gives no path, the checker must blame this field, or the whole payload
        // for a syntax error (a number cannot start with ".").
        let fieldPath = "content-state.\(field)" + (value.hasPrefix("[") ? "[0]" : "")
        let blamed = failures.first.map { $0.path == fieldPath || ($0.path.isEmpty && $0.reason == .invalidJSON) } ?? true
        guard !(decoder.agrees(with: failures, expectedPath: nil) && blamed) else { return nil }
        return "\(field)=\(value): checker \(failures.first.map(\.description) ?? "ok"), decoder \(decoder)"
    }

    static func randomNumber(_ random: inout SplitMix64) -> String {
        func digits(_ count: Int) -> String { String((0..<count).map { _ in "0123456789".randomElement(using: &random) ?? "0" }) }
        var text = Bool.random(using: &random) ? "-" : ""
        switch Int.random(in: 0..<4, using: &random) {
        case 0: text += "0"
        case 1: text += String(Int.random(in: 1...9, using: &random)) + digits(Int.random(in: 0...4, using: &random))
        default: text += String(Int.random(in: 1...9, using: &random)) + digits(Int.random(in: 0...22, using: &random))
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
            text += "." + (Bool.random(using: &random)
                ? String(repeating: "0", count: Int.random(in: 1...20, using: &random)) : digits(Int.random(in: 1...25, using: &random)))
        }
        if Int.random(in: 0..<3, using: &random) == 0 {
            text += (Bool.random(using: &random) ? "e" : "E") + ["", "+", "-"][Int.random(in: 0..<3, using: &random)]
                + digits(Int.random(in: 1...3, using: &random))
        }
        return text
    }

    func testNumbersAgreeForEveryNumericType() {
        var random = SplitMix64(seed: 11)
        var numbers = ["0", "-0", "-0.0", "0.0e-999", "0e5", "0.000e1", "0E0", "1e-400", "-1e-400", "2e-324", "4.9e-324",
                       "1.7976931348623157e308", "1.7976931348623159e308", "3.4028235e38", "3.4028236e38", "3.5e38", "1e-45", "1e-46",
                       "127", "128", "-128", "-129", "255", "256", "65535", "65536", "-1", "9223372036854775807", "9223372036854775808",
                       "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
                       "9007199254740993.0", "9007199254740993.5", "9223372036854775295.0", "9223372036854775296.0",
                       "-9223372036854775807.0", "-9223372036854775808.0", "1.8446744073709551615e19", "12345678901234567.89e1",
                       "1.000000000000000000001", "10.0e-1", "100e-2", "1e-2", "01", "-01", "1.", ".5", "-", "1e", "1e+", "1-2", "--1",
                       "1.2.3", "1e5e5", "-.5", "5.e3", "00", "1E+2", "1e02"]
        for _ in 0..<400 { numbers.append(Self.randomNumber(&random)) }
        var disagreements: [String] = []
        for number in numbers {
            for field in ["level", "port", "counter", "ratio", "temperature", "checkpoints"] {
                let value = field == "checkpoints" ? "[\(number)]" : number
                if let problem = compare(field: field, value: value) { disagreements.append(problem) }
            }
        }
        XCTAssertTrue(disagreements.isEmpty, disagreements.prefix(15).joined(separator: "\n"))
    }

    func testStringsAgree() {
        var random = SplitMix64(seed: 12)
        let pieces: [[UInt8]] = [Array("a".utf8), Array("é".utf8), Array("😀".utf8), Array("\\n".utf8), Array("\\\"".utf8),
                                 Array("\\/".utf8), Array("\\u00e9".utf8), Array("\\ud83d\\ude00".utf8), Array("\\ud83d".utf8),
                                 Array("\\ude00".utf8), Array("\\ud83dx".utf8), Array("\\uZZZZ".utf8), Array("\\x".utf8), Array("\\u0000".utf8),
                                 [0x01], [0x1F], [0x7F], [0xC3], [0xC3, 0xA9], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                                 [0xC0, 0x80], [0xFF], [0x09]]
        var disagreements: [String] = []
        let leave = OracleModel.named("Leave")
        for _ in 0..<1_500 {
            var content: [UInt8] = []
            for _ in 0..<Int.random(in: 0...4, using: &random) { content += pieces.randomElement(using: &random) ?? [] }
            for (key, asKey) in [("status", false), ("status", true)] {
                let state: [UInt8] = asKey
                    ? Array(#"{"status":"x",""#.utf8) + content + Array(#"":1}"#.utf8)
                    : Array(#"{"\#(key)":""#.utf8) + content + Array(#""}"#.utf8)
                let payload = Array(#"{"aps":{"content-state":"#.utf8) + state + Array("}}".utf8)
                let failures = leave.checker(.deferredToDate).check(payload: payload, event: .update)
                let decoder = leave.decoderVerdict(payload, event: .update, strategy: .deferredToDate)
                if !decoder.agrees(with: failures, expectedPath: asKey ? "content-state" : "content-state.status") {
                    disagreements.append("\(String(decoding: payload, as: UTF8.self)): checker \(failures), decoder \(decoder)")
                }
            }
        }
        XCTAssertTrue(disagreements.isEmpty, disagreements.prefix(10).joined(separator: "\n"))
    }

    func testUUIDStringsAgreeWithFoundation() {
        var random = SplitMix64(seed: 13)
        let valid = Array("E0D62919-9EF2-49C6-A108-85A227AF3904".utf8)
        let pool = Array("0123456789abcdefABCDEFgG-{} ".utf8)
        var disagreements: [String] = []
        for _ in 0..<1_000 {
            var candidate = valid
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: candidate[Int.random(in: 0..<candidate.count, using: &random)] = pool.randomElement(using: &random) ?? 0
                case 1: candidate.remove(at: Int.random(in: 0..<candidate.count, using: &random))
                default: candidate.insert(pool.randomElement(using: &random) ?? 0, at: Int.random(in: 0...candidate.count, using: &random))
                }
            }
            let text = String(decoding: candidate, as: UTF8.self)
            if let problem = compare(field: "deviceID", value: "\"\(text)\"") { disagreements.append(problem) }
            let foundation = UUID(uuidString: text) != nil
            let failures = telemetry.checker(.deferredToDate).check(payload: Array(OracleTableTests.telemetry(["deviceID": "\"\(text)\""]).utf8),
                event: .update)
            if foundation != failures.isEmpty { disagreements.append("UUID(uuidString: \(text)) = \(foundation), checker \(failures)") }
        }
        XCTAssertTrue(disagreements.isEmpty, disagreements.prefix(10).joined(separator: "\n"))
    }

    func testISO8601AndURLStringsAgree() {
        let dates = ["2025-04-16T10:04:52Z", "2025-04-16T10:04:52.123456Z", "2025-04-16T10:04:52+0700", "2025-04-16T10:04:52+07",
                     "2025-04-16T10:04:52GMT", "2025-04-16T10:04:52ZZ", "2025-02-30T10:04:52Z", "25-04-16T10:04:52Z", "2025-04-16t10:04:52z",
                     "2025-04-16", "20250416T100452Z", "2025-13-01T00:00:00Z", " 2025-04-16T10:04:52Z", "", "yesterday"]
        for date in dates {
            XCTAssertNil(compare(field: "lastSeen", value: "\"\(date)\"", strategy: .iso8601, also: ["checkpoints": "[]"]))
            XCTAssertNil(compare(field: "checkpoints", value: "[\"\(date)\"]", strategy: .iso8601))
        }
        let delivery = OracleModel.named("Delivery")
        for url in ["https://x.example", "", " ", "not a url", "http://a b", "http://[::1", "%", "://", "ü", "mailto:a@b.c", "http://x:99999"] {
            let payload = Array(OracleTableTests.start(attributes: OracleTableTests.deliveryAttributes(url: "\"\(url)\""),
                contentState: OracleTableTests.delivery(), type: "DeliveryAttributes").utf8)
            let failures = delivery.checker(.deferredToDate).check(payload: payload, event: .start)
            let decoder = delivery.decoderVerdict(payload, event: .start, strategy: .deferredToDate)
            XCTAssertTrue(decoder.agrees(with: failures, expectedPath: nil), "URL \"\(url)\": checker \(failures), decoder \(decoder)")
        }
    }

    // Keys and raw values compare as Swift Strings do: by canonical equivalence.

    struct KelvinState: Codable, Hashable {
        enum Cafe: String, Codable, Hashable { case cafe = "café" }
        var Key: Int
        var drink: Cafe?
    }

    func testKeysAndRawValuesMatchByCanonicalEquivalence() throws {
        let model = try ModelDeclaration.parse(source: """
        struct Kelvin: Codable {
            struct ContentState: Codable, Hashable {
                enum Cafe: String, Codable, Hashable { case cafe = "café" }
                var Key: Int
                var drink: Cafe?
            }
        }
        """, file: "Kelvin.swift", attributesType: "Kelvin")
        for state in [#"{"\u212Aey":5}"#, #"{"Key":5,"drink":"cafe\u0301"}"#, #"{"\u212Aey":"x","Key":5}"#, #"{"Key":5,"drink":"cafe"}"#] {
            let payload = #"{"aps":{"content-state":\#(state)}}"#
            let failures = PayloadCheck(model: model).check(payload: Array(payload.utf8), event: .update)
            let decoded = (try? JSONDecoder().decode(UpdateEnvelope<KelvinState>.self, from: Data(payload.utf8))) != nil
            XCTAssertEqual(failures.isEmpty, decoded, "\(state): checker \(failures), decoder \(decoded ? "ok" : "fails")")
        }
    }
}
