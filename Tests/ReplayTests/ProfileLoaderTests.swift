import APNsCore
@testable import Replay
import XCTest

/// Profiles are read strictly: every error names the file, the line and the key.
final class ProfileLoaderTests: XCTestCase {
    let base = """
        name: t
        workload: order-changes
        stream: s.ndjson
        template: t.json
        bundle_id: com.example.app

        """

    func parse(_ extra: String) throws -> RunProfile { try ProfileLoader.parse(yaml: base + extra, file: "p.yaml") }

    func assertError(_ extra: String, line: Int, mentions words: [String], file: StaticString = #filePath, l: UInt = #line) {
        XCTAssertThrowsError(try parse(extra), file: file, line: l) { error in
            guard let e = error as? ProfileError else { return XCTFail("not a ProfileError: \(error)", file: file, line: l) }
            XCTAssertEqual(e.file, "p.yaml", file: file, line: l)
            XCTAssertEqual(e.line, line, "\(e)", file: file, line: l)
            for w in words { XCTAssertTrue("\(e)".contains(w), "'\(e)' should mention \(w)", file: file, line: l) }
        }
    }

    func testTuningKnobsAndRetryAndSLOAreRead() throws {
        let p = try parse("""
            collapse_id: store-42
            retry_attempts: 4
            retry_backoff: 500ms
            retry_max_elapsed: 2m
            slo_p99_ms: 750
            slo_min_delivered: 0.9
            workers: 2
            connections: 4
            expiration_seconds: 3600
            """)
        XCTAssertEqual(p.collapseID, "store-42")
        XCTAssertEqual(p.retryAttempts, 4)
        XCTAssertEqual(p.retryBackoffMillis, 500)
        XCTAssertEqual(p.retryMaxElapsedMillis, 120_000)
        XCTAssertEqual(p.sloP99Millis, 750)
        XCTAssertEqual(p.sloMinDelivered, 0.9)
        XCTAssertEqual(p.workers, 2)
        XCTAssertEqual(p.expirationSeconds, 3600)
        let defaults = try parse("")
        XCTAssertNil(defaults.collapseID)
        XCTAssertNil(defaults.retryAttempts)
        XCTAssertNil(defaults.sloP99Millis)
    }

    func testBadValuesNameTheirKeyAndLine() {
        assertError("collapse_id: \(String(repeating: "x", count: 65))\n", line: 6, mentions: ["collapse_id", "64"])
        assertError("streams: 100\nretry_attempts: 0\n", line: 7, mentions: ["retry_attempts"])
        assertError("retry_backoff: soon\n", line: 6, mentions: ["retry_backoff", "soon"])
        assertError("slo_min_delivered: 1.5\n", line: 6, mentions: ["slo_min_delivered"])
        assertError("slo_p99_ms: fast\n", line: 6, mentions: ["slo_p99_ms"])
        assertError("retries: 3\n", line: 6, mentions: ["retries"])
        assertError("connections: two\n", line: 6, mentions: ["connections", "two"])
    }
}
