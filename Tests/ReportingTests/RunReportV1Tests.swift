import APNsCore
import Foundation
import XCTest
@testable import Reporting

/// A schema-1 report, as the build before schema 2 wrote it (a real order-changes run), still loads,
/// converted to the current schema with every value it kept.
final class RunReportV1Tests: XCTestCase {
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/v1-order-changes.report.json").path

    func testASchema1ReportLoadsWithItsCountsConfigurationAndEngine() throws {
        let raw = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture))) as! [String: Any]
        XCTAssertEqual(raw["schemaVersion"] as? Int, 1, "the fixture is a real schema-1 report")
        let r = try RunReport.load(from: fixture)
        XCTAssertEqual(r.schemaVersion, 2)
        XCTAssertEqual(r.pushes.planned, 18040)
        XCTAssertEqual(r.pushes.delivered, 16155)
        XCTAssertEqual(r.pushes.rejected["Unregistered"], RunReport.Rejection(status: 410, count: 64))
        XCTAssertEqual(r.pushes.notSent, ["no_recipients": 1311, "dead_token": 510])
        XCTAssertTrue(r.pushes.balanced)
        XCTAssertEqual(r.events.read, 6000)
        let c = r.configuration
        XCTAssertEqual(c.workload.name, "order-changes")
        XCTAssertEqual(c.workload.bundleID, "com.example.ordermanager")
        XCTAssertEqual(c.workload.pushType, .liveactivity)
        XCTAssertEqual(c.topic, "com.example.ordermanager.push-type.liveactivity")
        XCTAssertEqual(c.payload.priority, .immediate)
        XCTAssertEqual(c.transport.connections, 2)
        XCTAssertEqual(c.transport.streams, 100)
        XCTAssertEqual(c.auth.tokenRefresh, .seconds(50 * 60))
        XCTAssertEqual(c.schedule.mode, .closedLoop)
        XCTAssertEqual(c.slo.p99, .milliseconds(1000))
        XCTAssertEqual(c.slo.minDelivered, 0.85)
        XCTAssertEqual(c.retry.attempts, 10)
        XCTAssertEqual(r.engine.connectionsOpened, 2)
        XCTAssertEqual(r.engine.deadTokens, 8)
        XCTAssertEqual(r.engine.sent, r.throughput.sent)
        XCTAssertFalse(r.timeline.isEmpty)
        XCTAssertNil(r.latency.histograms, "schema 1 kept percentile ladders only")
    }

    func testItRendersAndItsConversionReadsBackAsSchema2() throws {
        let r = try RunReport.load(from: fixture)
        let md = SummaryText.markdown(r)
        XCTAssertTrue(md.contains("| delivered | 16155 |"), md)
        XCTAssertTrue(md.contains("converted from a schema 1 report") || md.contains("profiles/order-changes.yaml"), md)
        let again = try RunReport.decode(try r.encoded(), path: "converted.json")
        XCTAssertEqual(again, r)
    }

    func testEveryV1ScheduleSpellingParses() {
        // The strings schema 1 wrote are Schedule.description's.
        for s in [Schedule.closedLoop, .recorded(speed: 60), .recorded(speed: 2.5), .fixedRate(perSecond: 2000), .ramp(from: 1000, to: 20000, seconds: 60)] {
            XCTAssertEqual(RunReport.v1Schedule(s.description), s, s.description)
        }
        XCTAssertNil(RunReport.v1Schedule("sometimes"))
    }
}
