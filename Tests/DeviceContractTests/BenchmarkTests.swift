import DeviceContract
import Foundation
import XCTest

/// How long one check takes on a typical Live Activity update. Prints ns per check; fails only if the
/// checker is grossly slow (the bound holds for a debug build on a busy machine).
final class BenchmarkTests: XCTestCase {
    static let typicalPayload = #"{"aps":{"timestamp":1714042800,"event":"update","content-state":{"status":"approved","responseTime":766490692,"#
        + #""respondedBy":"Jane Smith"},"alert":{"title":"Leave Request Update","body":"Your leave request status has been updated."},"#
        + #""stale-date":1714046400},"activity-id":"E0D62919-9EF2-49C6-A108-85A227AF3904"}"#

    private func nanosecondsPerCall(iterations: Int, _ body: () -> Int) -> Double {
        var sink = 0
        for _ in 0..<min(iterations, 1_000) { sink &+= body() } // warm-up
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { sink &+= body() }
        let elapsed = DispatchTime.now().uptimeNanoseconds - start
        XCTAssertGreaterThanOrEqual(sink, 0)
        return Double(elapsed) / Double(iterations)
    }

    func testNanosecondsPerCheck() throws {
        let model = try ModelDeclaration.parse(source: leaveRequestDeclaration, file: "LeaveRequestAttributes.swift")
        let check = PayloadCheck(model: model)
        let payload = Array(Self.typicalPayload.utf8)
        let failing = Array(Self.typicalPayload.replacingOccurrences(of: "766490692", with: #""2025-04-16T10:04:52Z""#).utf8)
        XCTAssertEqual(check.check(payload: payload, event: .update), [])
        XCTAssertEqual(check.check(payload: failing, event: .update).count, 1)

        let iterations = 100_000
        let ok = nanosecondsPerCall(iterations: iterations) { check.check(payload: payload, event: .update).count }
        let bad = nanosecondsPerCall(iterations: iterations) { check.check(payload: failing, event: .update).count }
        let data = Data(payload)
        let viaData = nanosecondsPerCall(iterations: iterations) { check.check(payload: data, event: .update).count }
        let decoder = JSONDecoder()
        let foundation = nanosecondsPerCall(iterations: iterations / 10) {
            (try? decoder.decode(UpdateEnvelope<LeaveRequestAttributes.ContentState>.self, from: data)) == nil ? 1 : 0
        }
        print(String(format: "\nBENCHMARK (%d-byte payload): %.0f ns/check (decodes), %.0f ns/check (one failure), %.0f ns/check from Data; JSONDecoder alone: "
            + "%.0f ns/decode\n",
                     payload.count, ok, bad, viaData, foundation))
        XCTAssertLessThan(ok, 100_000, "a check should take well under 100 µs")
    }
}
