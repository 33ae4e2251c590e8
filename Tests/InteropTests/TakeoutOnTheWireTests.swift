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
        let python = try requireTool("python3", package: "python3")
        let probe = try runChild(python, ["-c", "import h2"])
        guard probe.status == 0 else { throw InteropError("the Python library h2 is not installed: run scripts/install-deps.sh --test") }
        let dir = try ScratchFolder.make("takeout-wire", removedBy: addTeardownBlock)
        let requests = dir.appendingPathComponent("requests").path
        let capture = try ChildProcess(python, [RepoFiles.path("scripts/push-capture.py"), requests])
        addTeardownBlock { _ = try? capture.stop() }
        XCTAssertTrue(capture.output.wait(timeout: 30) { !$0.isEmpty }, "push-capture.py printed no port")
        let port = try XCTUnwrap(capture.output.all.first)
        let key = dir.appendingPathComponent("AuthKey_CAPTURE000.p8").path
        let openssl = try runChild(try requireTool("openssl", package: "openssl"), ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
        XCTAssertEqual(openssl.status, 0, openssl.output)

        let profile = "profiles/examples/takeout/takeout.yaml"
        let planPath = dir.appendingPathComponent("plan.ndjson").path
        let plan = try apnsbench(["plan", profile, "--show-tokens", "--out", planPath], directory: RepoFiles.root)
        XCTAssertEqual(plan.status, 0, plan.output)
        let run = try apnsbench(["run", profile, "--closed-loop", "--target", "http://127.0.0.1:\(port)", "--key-path", key,
                                 "--key-id", "CAPTURE000", "--team-id", "TEAMCAPTUR", "--quiet", "--out", dir.appendingPathComponent("out").path],
                               directory: RepoFiles.root)
        XCTAssertEqual(run.status, 0, run.output)

        // Each planned push to send, as the capture writes a request.
        var planned: [String] = []
        for raw in try String(contentsOfFile: planPath, encoding: .utf8).split(separator: "\n") where !raw.contains(#""not_sent""#) {
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
            let payload = try XCTUnwrap(raw.range(of: #""payload":"#).map { raw[$0.upperBound...].dropLast() })
            var headers = ["apns-push-type=\(json["push_type"]!)", "apns-topic=\(json["topic"]!)", "apns-priority=\(json["priority"]!)"]
            if let c = json["collapse_id"] { headers.append("apns-collapse-id=\(c)") }
            if json["expiration_after_send"] != nil { headers.append("apns-expiration=*") }
            planned.append("/3/device/\(json["token"]!) " + headers.sorted().joined(separator: " ") + " body=" + SHA256Hasher.hex(SHA256Hasher.hash(Array(payload.utf8))))
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
