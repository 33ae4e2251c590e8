import APNsCore
import DeviceDelivery
import Foundation
import Histogram
@testable import Reporting

import XCTest

/// `merge` of senders' reports in memory (`apnsbench simulate --report`, a fleet of senders each against a
/// simulator of its own): counts, histograms and the received section added exactly; a sender's report with a
/// run's shard refused, both named.
final class SenderMergeTests: XCTestCase {
    private typealias Received = RunReport.Received

    /// A sender's report: the mixed recorder's 18 pushes, as a simulator received them, `offset` seconds after
    /// the fixture start.
    private func sender(_ name: String, offset: Double = 0, received: Received, device: (onTime: Int, late: Int)) -> ReportMerge.Input {
        var config = Fixtures.configuration
        config.workload.pushType = PushType(rawValue: received.requests[0].pushType)!
        config.profilePath = "/etc/\(name)/simulator.yaml"
        var report = Fixtures.mixedRecorder().makeReport(configuration: config, events: Fixtures.mixedEvents(planned: 18),
                                                         environment: Fixtures.environment, engine: Fixtures.engine,
                                                         startedAt: Fixtures.startedAt.addingTimeInterval(offset), durationSeconds: 10)
        report.received = received
        let none = RunReport.DeviceDelivery.TimeToDevice(byPriority: [:], byPushType: [:], histograms: .init(byPriority: [:], byPushType: [:]))
        report.device = RunReport.DeviceDelivery(parameters: DeviceDeliveryParameters(), pushes: device.onTime + device.late,
                                         outcomes: ["on_time": device.onTime, "late": device.late], replaced: [:], dropped: [:],
                                         shownStale: 0, timeToDevice: none)
        return ReportMerge.Input(source: "reports/\(name)", report: report)
    }

    private let a = Received(
        requests: [.init(pushType: "alert", topic: "com.example.app", priority: "10", answer: "200", count: 12),
                   .init(pushType: "alert", topic: "com.example.app", priority: "10", answer: "BadDeviceToken", count: 4),
                   .init(pushType: "background", topic: "com.example.app", priority: "5", answer: "200", count: 2)],
        providerTokens: .init(verified: 2, tooManyUpdates: 1, expired: 0, invalidOrMissing: 0),
        connections: .init(opened: 2, closed: 2, requestsPerConnection: [10, 8], mostOpenStreams: 6),
        liveActivityBudget: .init(perHour: 24, tokens: 3, mostPerToken: 30, tokensOverBudget: 1, overruns: 6))
    private let b = Received(
        requests: [.init(pushType: "liveactivity", topic: "com.example.app.push-type.liveactivity", priority: "10", answer: "200", count: 10),
                   .init(pushType: "alert", topic: "com.example.app", priority: "10", answer: "BadDeviceToken", count: 5),
                   .init(pushType: "alert", topic: "com.example.app", priority: "5", answer: "200", count: 3)],
        providerTokens: .init(verified: 1, tooManyUpdates: 0, expired: 2, invalidOrMissing: 1),
        connections: .init(opened: 1, closed: 0, requestsPerConnection: [18], mostOpenStreams: 9),
        liveActivityBudget: .init(perHour: 24, tokens: 2, mostPerToken: 12, tokensOverBudget: 0, overruns: 0))

    func testSendersReportsAddUpExactly() throws {
        let inputs = [sender("one", received: a, device: (onTime: 15, late: 3)), sender("two", offset: 3, received: b, device: (onTime: 10, late: 8))]
        let merged = try ReportMerge.merge(inputs)
        let one = inputs[0].report
        XCTAssertEqual(merged.received?.requests, [
            .init(pushType: "alert", topic: "com.example.app", priority: "10", answer: "200", count: 12),
            .init(pushType: "liveactivity", topic: "com.example.app.push-type.liveactivity", priority: "10", answer: "200", count: 10),
            .init(pushType: "alert", topic: "com.example.app", priority: "10", answer: "BadDeviceToken", count: 9),
            .init(pushType: "alert", topic: "com.example.app", priority: "5", answer: "200", count: 3),
            .init(pushType: "background", topic: "com.example.app", priority: "5", answer: "200", count: 2),
        ])
        XCTAssertEqual(merged.received?.providerTokens, .init(verified: 3, tooManyUpdates: 1, expired: 2, invalidOrMissing: 1))
        XCTAssertEqual(merged.received?.connections, .init(opened: 3, closed: 2, requestsPerConnection: [10, 8, 18], mostOpenStreams: 9))
        XCTAssertEqual(merged.received?.liveActivityBudget, .init(perHour: 24, tokens: 5, mostPerToken: 30, tokensOverBudget: 1, overruns: 6))
        XCTAssertEqual(merged.configuration.workload.pushType, .alert, "the push type most requested over both: 24 alerts")
        XCTAssertEqual(merged.device?.outcomes, ["on_time": 25, "late": 11])
        XCTAssertEqual(merged.device?.pushes, 36)

        XCTAssertEqual(merged.pushes.planned, 2 * one.pushes.planned)
        XCTAssertEqual(merged.pushes.delivered, 2 * one.pushes.delivered)
        XCTAssertEqual(merged.pushes.rejected["BadDeviceToken"], RunReport.Rejection(status: 400, count: 2 * one.pushes.rejected["BadDeviceToken"]!.count))
        XCTAssertEqual(merged.events.read, 2 * one.events.read)
        XCTAssertEqual(merged.events.expectedPushes, 36)
        XCTAssertEqual(merged.pushes.expectedPlanned, 36)
        XCTAssertTrue(merged.pushes.balanced)
        var checked = merged
        checked.device = nil  // the fixtures' device sections hold outcomes only, no time to device
        XCTAssertEqual(checked.violations(), [], "the merged report holds every invariant report --check verifies")
        XCTAssertEqual(merged.engine.sent, 2 * Fixtures.engine.sent)
        let single = try one.latency.histograms!.overall.decoded().responseTime
        let all = try merged.latency.histograms!.overall.decoded().responseTime
        XCTAssertEqual(all.totalCount, 2 * single.totalCount)
        for value: UInt64 in [2_000, 4_000, 6_000, 13_000, 15_000] {
            XCTAssertEqual(all.countForValue(value), 2 * single.countForValue(value), "bucket of \(value) µs")
        }
        XCTAssertEqual(merged.latency.byPushType, [:], "delivered pushes of three push types are not told apart")
        // Arrivals a second: the second sender started 3 s later, so its seconds move by 3.
        let sent = Dictionary(uniqueKeysWithValues: merged.timeline.map { ($0.second, $0.sent) })
        let senderSent = Dictionary(uniqueKeysWithValues: one.timeline.map { ($0.second, $0.sent) })
        XCTAssertEqual(sent[3], (senderSent[3] ?? 0) + (senderSent[0] ?? 0))
        XCTAssertEqual(merged.timeline.reduce(0) { $0 + $1.sent }, 2 * one.timeline.reduce(0) { $0 + $1.sent })
        XCTAssertEqual(merged.durationSeconds, 13, accuracy: 0.001, "from the first start to the last end")
        XCTAssertEqual(merged.merged?.parts.map(\.source), ["reports/one", "reports/two"])
    }

    func testASendersReportWithARunsShardIsRefusedNamingBoth() {
        var shard = Fixtures.mixedRecorder().makeReport(configuration: Fixtures.configuration, events: Fixtures.mixedEvents(planned: 18),
                                                        environment: Fixtures.environment, engine: Fixtures.engine,
                                                        startedAt: Fixtures.startedAt, durationSeconds: 10)
        shard.configuration.shard = RunConfig.Shard(index: 0, count: 1)
        let inputs = [sender("one", received: a, device: (onTime: 15, late: 3)), ReportMerge.Input(source: "reports/shard-0", report: shard)]
        XCTAssertThrowsError(try ReportMerge.merge(inputs)) { error in
            XCTAssertEqual(String(describing: error), "cannot merge: a sender's report (apnsbench simulate --report) merges only with senders' "
                + "reports, a run's only with its shards: senders' reports/one; runs' reports/shard-0")
        }
    }

    func testASendersReportGivenTwiceIsRefused() {
        let one = sender("one", received: a, device: (onTime: 15, late: 3))
        var copy = one
        copy.source = "reports/copy-of-one"
        XCTAssertThrowsError(try ReportMerge.merge([one, copy])) { error in
            XCTAssertEqual(String(describing: error), "cannot merge: reports/copy-of-one is the same sender's report as reports/one: it would be counted twice")
        }
    }

    func testSendersAgainstSimulatorsConfiguredApartAreRefusedNamingTheKey() {
        var two = sender("two", received: b, device: (onTime: 10, late: 8))
        two.report.configuration.liveActivityBudget = 12
        XCTAssertThrowsError(try ReportMerge.merge([sender("one", received: a, device: (onTime: 15, late: 3)), two])) { error in
            XCTAssertEqual(String(describing: error),
                           "cannot merge: reports/two: its simulator was configured apart from reports/one's: liveActivityBudget")
        }
    }
}
