import Foundation
import TestSupport
import XCTest

/// A client-chosen `apns-id` end to end: the parcels example with `apns_id: per_push` on its Live Activity rule
/// plans one UUID per update, sends each with the id its plan shows (scripts/push-capture.py records the requests),
/// and the embedded simulator, which refuses a malformed `apns-id` (`BadMessageId`) and echoes a good one,
/// delivers every push.
final class ApnsIDOnTheWireTests: XCTestCase {
    func testEachUpdateCarriesTheIDItsPlanShows() throws {
        let dir = try ScratchFolder.make("apns-id-wire", removedBy: addTeardownBlock)
        let parcels = dir.appendingPathComponent("parcels")
        try FileManager.default.copyItem(at: RepoFiles.root.appendingPathComponent("profiles/examples/parcels"), to: parcels)
        let recipe = parcels.appendingPathComponent("recipe.yaml")
        let rule = "      - name: activity                     # every status: the parcel's Live Activity\n        to: {entity: parcel, key: parcel_id}\n"
        let yaml = try String(contentsOf: recipe, encoding: .utf8)
        XCTAssertTrue(yaml.contains(rule))
        try yaml.replacingOccurrences(of: rule, with: rule + "        apns_id: per_push\n").write(to: recipe, atomically: true, encoding: .utf8)
        let profile = parcels.appendingPathComponent("parcels.yaml").path

        let planPath = dir.appendingPathComponent("plan.ndjson").path
        let plan = try apnsbench(["plan", profile, "--out", planPath], directory: RepoFiles.root)
        XCTAssertEqual(plan.status, 0, plan.output)
        let capture = try PushCapture(in: dir, stoppedBy: self)
        let run = try capture.run(profile, out: dir.appendingPathComponent("capture").path)
        XCTAssertEqual(run.status, 0, run.output)

        func ids(_ lines: [Substring], _ read: (Substring) -> Substring?) -> [String] { lines.compactMap(read).map(String.init).sorted() }
        let sent = try String(contentsOfFile: capture.requests, encoding: .utf8).split(separator: "\n")
        let planned = try String(contentsOfFile: planPath, encoding: .utf8).split(separator: "\n").filter { !$0.contains(#""not_sent""#) }
        let onTheWire = ids(sent) { line in line.split(separator: " ").first { $0.hasPrefix("apns-id=") }?.dropFirst("apns-id=".count) }
        let inThePlan = ids(planned) { line in
            guard let r = line.range(of: #""apns_id":""#) else { return nil }
            return line[r.upperBound...].prefix { $0 != "\"" }
        }
        XCTAssertEqual(onTheWire, inThePlan)
        XCTAssertEqual(inThePlan.count, 281, "every update sent, and no alert, carries one")
        XCTAssertEqual(Set(inThePlan).count, inThePlan.count, "one id per push")
        XCTAssertFalse(sent.contains { $0.contains("apns-push-type=alert") && $0.contains("apns-id=") })

        // The embedded simulator takes every id: none is refused as BadMessageId. The profile's p99 SLO is not what is
        // judged here, and a busy host misses it (closed loop, p99 1.2 s with other builds on the 2 cores): it is lifted.
        let simulated = try apnsbench(["run", profile, "--closed-loop", "--quiet", "--slo-p99-ms", "3600000",
                                       "--out", dir.appendingPathComponent("sim").path],
                                      directory: RepoFiles.root)
        XCTAssertEqual(simulated.status, 0, simulated.output)
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("sim/report.json"))) as? [String: Any]
        let pushes = try XCTUnwrap(report?["pushes"] as? [String: Any])
        XCTAssertEqual(pushes["delivered"] as? Int, 373)
        XCTAssertEqual((pushes["rejected"] as? [String: Any])?.count, 0)
    }
}
