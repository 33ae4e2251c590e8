import APNsCore
import Foundation
import TestSupport
import XCTest

/// The takeout example on the wire: replayed against scripts/push-capture.py (an h2c server that records each
/// request's path, headers and body digest), every push its plan shows to send arrives once with the plan's
/// token, push type, topic, priority, collapse id and payload bytes, and the Live Activity updates carry an
/// `apns-expiration` (from `expiration_at`) that the alerts do not.
final class TakeoutOnTheWireTests: XCTestCase {
    func testEveryPlannedPushArrivesAsPlanned() throws {
        let dir = try ScratchFolder.make("takeout-wire", removedBy: addTeardownBlock)
        let capture = try PushCapture(in: dir, stoppedBy: self)
        let requests = capture.requests

        let profile = "profiles/examples/takeout/takeout.yaml"
        let planPath = dir.appendingPathComponent("plan.ndjson").path
        let plan = try apnsbench(["plan", profile, "--show-tokens", "--out", planPath], directory: RepoFiles.root)
        XCTAssertEqual(plan.status, 0, plan.output)
        let run = try capture.run(profile, out: dir.appendingPathComponent("out").path)
        XCTAssertEqual(run.status, 0, run.output)

        // Each planned push to send, as the capture writes a request.
        var planned: [String] = []
        for raw in try String(contentsOfFile: planPath, encoding: .utf8).split(separator: "\n") where !raw.contains(#""not_sent""#) {
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
            let payload = try XCTUnwrap(raw.range(of: #""payload":"#).map { raw[$0.upperBound...].dropLast() })
            var headers = ["apns-push-type=\(json["push_type"]!)", "apns-topic=\(json["topic"]!)", "apns-priority=\(json["priority"]!)"]
            if let c = json["collapse_id"] { headers.append("apns-collapse-id=\(c)") }
            if json["expiration_after_send"] != nil { headers.append("apns-expiration=*") }
            planned.append("/3/device/\(json["token"]!) " + headers.sorted().joined(separator: " ")
                + " body=" + SHA256Hasher.hex(SHA256Hasher.hash(Array(payload.utf8))))
        }
        // Each request captured, in the same form (the headers that the plan names).
        let named = ["apns-push-type", "apns-topic", "apns-priority", "apns-collapse-id", "apns-expiration"]
        let sent = try String(contentsOfFile: requests, encoding: .utf8).split(separator: "\n").map { line -> String in
            let parts = line.split(separator: " ")
            let path = parts.first { $0.hasPrefix(":path=") }.map { String($0.dropFirst(":path=".count)) } ?? "?"
            let headers = parts.filter { p in named.contains { p.hasPrefix($0 + "=") } }.map(String.init).sorted()
            return ([path] + headers + [String(parts.last ?? "")]).joined(separator: " ")
        }
        XCTAssertEqual(planned.count, 8)
        XCTAssertEqual(sent.sorted(), planned.sorted())
        XCTAssertEqual(sent.filter { $0.contains("apns-expiration=*") }.count, 3, "the three Live Activity updates, from expiration_at")
    }
}
