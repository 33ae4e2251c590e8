import Foundation
import TestSupport
import XCTest

/// Header values a recipe reads from each event reach the wire: the parcels example, replayed against
/// scripts/push-capture.py (an h2c server, hyper-h2, that records every request's headers), sends each alert
/// with the collapse id its plan shows, and its Live Activity updates with none.
final class HeaderValuesOnTheWireTests: XCTestCase {
    func testTheParcelsAlertsCarryTheirParcelsCollapseID() throws {
        let dir = try ScratchFolder.make("wire", removedBy: addTeardownBlock)
        let capture = try PushCapture(in: dir, stoppedBy: self)
        let requests = capture.requests

        let profile = "profiles/examples/parcels/parcels.yaml"
        let plan = try apnsbench(["plan", profile, "--out", dir.appendingPathComponent("plan.ndjson").path], directory: RepoFiles.root)
        XCTAssertEqual(plan.status, 0, plan.output)
        let run = try capture.run(profile, out: dir.appendingPathComponent("out").path)
        XCTAssertEqual(run.status, 0, run.output)

        func collapseIDs(_ lines: [Substring], _ read: (Substring) -> Substring?) -> [String: Int] {
            lines.compactMap(read).reduce(into: [:]) { $0[String($1), default: 0] += 1 }
        }
        let sent = try String(contentsOfFile: requests, encoding: .utf8).split(separator: "\n")
        let planned = try String(contentsOfFile: dir.appendingPathComponent("plan.ndjson").path, encoding: .utf8).split(separator: "\n")
            .filter { !$0.contains(#""not_sent""#) }
        let onTheWire = collapseIDs(sent) { line in
            line.split(separator: " ").first { $0.hasPrefix("apns-collapse-id=") }?.dropFirst("apns-collapse-id=".count)
        }
        let inThePlan = collapseIDs(planned) { line in
            guard let r = line.range(of: #""collapse_id":""#) else { return nil }
            return line[r.upperBound...].prefix { $0 != "\"" }
        }
        XCTAssertEqual(sent.count, planned.count, "every push to send was sent")
        XCTAssertEqual(onTheWire, inThePlan)
        // The delivered and the signed alert of each parcel share its id; no update carries one.
        XCTAssertEqual(onTheWire.values.reduce(0, +), 92, "\(onTheWire)")
        XCTAssertTrue(onTheWire.keys.allSatisfy { $0.hasPrefix("parcel-P") }, "\(onTheWire)")
        XCTAssertFalse(sent.contains { $0.contains("apns-push-type=liveactivity") && $0.contains("apns-collapse-id") })

        // The report counts the pushes each rule planned, as the plan names them line by line.
        var byRuleInPlan: [String: [String: Int]] = [:]
        for line in try String(contentsOfFile: dir.appendingPathComponent("plan.ndjson").path, encoding: .utf8).split(separator: "\n") {
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let kind = try XCTUnwrap((json["event"] as? [String: Any])?["kind"] as? String)
            byRuleInPlan[kind, default: [:]][json["rule"] as? String ?? "1", default: 0] += 1
        }
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out/report.json"))) as? [String: Any]
        let events = try XCTUnwrap(report?["events"] as? [String: Any])
        XCTAssertEqual(events["pushesByRule"] as? [String: [String: Int]], byRuleInPlan)
        XCTAssertEqual(byRuleInPlan["parcel.status"]?.keys.sorted(), ["activity", "delivered"])
    }
}
