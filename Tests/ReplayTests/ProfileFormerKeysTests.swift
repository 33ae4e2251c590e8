import APNsCore
@testable import Replay
import TestSupport
import XCTest

/// The profile keys that named their unit (`push_timeout_ms: 30000`) are duration keys now (`push_timeout: 30s`); a
/// profile that still gives a former name is read as before, with one notice a key naming the key to write.
final class ProfileFormerKeysTests: XCTestCase {
    let head = """
        name: t
        workload: order-changes
        recipe: \(RepoFiles.recipe("order-changes"))
        stream: s.ndjson
        bundle_id: com.example.app

        """

    func read(_ extra: String) throws -> Profile { try ProfileLoader.read(yaml: head + extra, file: "p.yaml") }

    func testAFormerNameIsReadAsItsDurationKeyWithANotice() throws {
        let former = try read("push_timeout_ms: 1500\ntoken_refresh_minutes: 45\nexpiration_seconds: 0\nslo_p99_ms: 250\n"
            + "slo_p99_time_to_device_ms: 60000\n")
        let current = try read("push_timeout: 1500ms\ntoken_refresh: 45m\nexpiration: 0\nslo_p99: 250ms\nslo_p99_time_to_device: 1m\n")
        XCTAssertEqual(former.config, current.config)
        XCTAssertEqual(current.deprecations, [])
        XCTAssertEqual(former.deprecations, [
            "p.yaml:6: 'push_timeout_ms' is deprecated: write 'push_timeout: 1500ms'",
            "p.yaml:7: 'token_refresh_minutes' is deprecated: write 'token_refresh: 45m'",
            "p.yaml:8: 'expiration_seconds' is deprecated: write 'expiration: 0'",
            "p.yaml:9: 'slo_p99_ms' is deprecated: write 'slo_p99: 250ms'",
            "p.yaml:10: 'slo_p99_time_to_device_ms' is deprecated: write 'slo_p99_time_to_device: 1m'",
        ])
        XCTAssertEqual(former.config.transport.pushTimeout, .milliseconds(1500))
        XCTAssertEqual(former.config.payload.expiration, .zero)
        XCTAssertEqual(former.lines["push_timeout"], 6, "an error about the value names the former key's line")
    }

    func testAFormerNameAndItsKeyTogetherAreRefused() {
        XCTAssertThrowsError(try read("push_timeout: 30s\npush_timeout_ms: 30000\n")) { error in
            XCTAssertEqual("\(error)", "p.yaml:6: 'push_timeout' and its former name 'push_timeout_ms' are both given; keep 'push_timeout'")
        }
    }

    func testAFormerNameStillTakesOnlyANumber() {
        XCTAssertThrowsError(try read("push_timeout_ms: 30s\n")) { error in
            XCTAssertEqual("\(error)", "p.yaml:6: 'push_timeout_ms' must be a number, found '30s'")
        }
    }

    /// The shipped profiles give no former name.
    func testTheShippedProfilesUseTheDurationKeys() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: RepoFiles.root.appendingPathComponent("profiles").path)
        where name.hasSuffix(".yaml") {
            let text = try String(contentsOf: RepoFiles.root.appendingPathComponent("profiles/" + name), encoding: .utf8)
            for s in RunSettings.all { if let former = s.formerKey { XCTAssertFalse(text.contains("\n\(former.name):"), "\(name): \(former.name)") } }
        }
    }
}
