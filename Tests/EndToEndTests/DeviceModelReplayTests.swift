import APNsCore
import Foundation
import Harness
import Reporting
import TestSupport
import XCTest

/// The device side of delivery end to end: the shipped leave-requests recording (11 hours of recorded time)
/// against the embedded simulator with a device model, replayed closed loop and at 20,000× its recorded
/// pace, gives the same device outcomes, since the model runs on the recording's clock.
final class DeviceModelReplayTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func testDeviceOutcomesAreTheSameAtAnySpeedAndEveryDeliveredPushHasOne() throws {
        let dir = try ScratchFolder.make("device-model")
        defer { ScratchFolder.remove(dir) }
        // Devices offline now and then, priority-10 updates past a budget of 2 an hour dropped.
        let model = dir.appendingPathComponent("model.yaml")
        try """
        simulator:
          device: { offline_share: 0.3, activity_budget_per_hour: 2, activity_budget_burst: 2 }
        """.write(to: model, atomically: true, encoding: .utf8)
        func run(_ overrides: (inout RunConfigOverrides) -> Void, _ name: String) throws -> RunReport {
            var request = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/leave-requests.yaml").path)
            request.outDirectory = dir.appendingPathComponent(name).path
            request.overrides.apnsModel = model.path
            overrides(&request.overrides)
            return try ReplayRun.execute(request, log: { _ in }).report
        }
        let closed = try run({ _ in }, "closed")
        let paced = try run({ $0.schedule = .recorded(speed: 20_000) }, "paced")
        let a = try XCTUnwrap(closed.device), b = try XCTUnwrap(paced.device)
        XCTAssertEqual(a, b, "the same outcomes and times to device at any speed")
        XCTAssertEqual(a.pushes, closed.pushes.delivered)
        XCTAssertEqual(a.outcomes.values.reduce(0, +), closed.pushes.delivered, "one outcome per delivered push")
        XCTAssertGreaterThan(a.outcomes["throttled"] ?? 0, 0, "a request's status changes come within the hour")
        XCTAssertGreaterThan(a.outcomes["late"] ?? 0, 0, "offline devices get theirs at reconnect")
        XCTAssertEqual(a.parameters.offlineShare, 0.3)
        // One Live Activity budget: the device model's throttled count, not the pipeline's beside it.
        XCTAssertNil(closed.liveActivityBudget)
        let loaded = try RunReport.load(from: dir.appendingPathComponent("paced/report.json").path)
        XCTAssertEqual(loaded.device, b)
        XCTAssertEqual(loaded.violations(), [])
        var broken = loaded
        broken.device?.outcomes["throttled", default: 0] += 1
        XCTAssertEqual(broken.violations().map(\.field), ["device.outcomes (sum)"], "an outcome too many is found")
        let summary = try String(contentsOf: dir.appendingPathComponent("paced/summary.md"), encoding: .utf8)
        XCTAssertTrue(summary.contains("## On the device"), summary)
        XCTAssertFalse(summary.contains("Live Activity budget (recorded time"), "one budget count: the device's")
        // latency.hlog carries each time-to-device histogram under its own tag.
        let hlog = try String(contentsOf: dir.appendingPathComponent("paced/latency.hlog"), encoding: .utf8)
        for (priority, summary) in b.timeToDevice.byPriority {
            let line = try XCTUnwrap(hlog.split(separator: "\n").first { $0.hasPrefix("Tag=timeToDevice.priority\(priority),") })
            let decoded = try EncodedHistogram.decode(String(line.split(separator: ",").last!))
            XCTAssertEqual(Int(decoded.totalCount), summary.count)
        }
    }

    func testShardsMergeToTheWholeRunsDeviceSection() throws {
        let dir = try ScratchFolder.make("device-model-shards")
        defer { ScratchFolder.remove(dir) }
        let model = dir.appendingPathComponent("model.yaml")
        try "simulator:\n  device: { offline_share: 0.5, wake_interval: 2m }\n".write(to: model, atomically: true, encoding: .utf8)
        func run(_ shard: RunConfig.Shard?, _ name: String) throws -> RunReport {
            var request = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/leave-requests.yaml").path)
            request.outDirectory = dir.appendingPathComponent(name).path
            request.overrides.apnsModel = model.path
            request.overrides.shard = shard
            request.runID = "device-shards"
            request.overrides.priority = .powerAware
            return try ReplayRun.execute(request, log: { _ in }).report
        }
        let whole = try run(nil, "whole")
        let shards = try (0..<2).map { try run(RunConfig.Shard(index: $0, count: 2), "shard\($0)") }
        let merged = try ReportMerge.merge(shards.enumerated().map { .init(source: "shard\($0.offset)", report: $0.element) })
        let a = try XCTUnwrap(whole.device), b = try XCTUnwrap(merged.device)
        XCTAssertEqual(b.outcomes, a.outcomes)
        XCTAssertEqual(b.timeToDevice.histograms, a.timeToDevice.histograms, "the histograms added exactly")
        XCTAssertEqual(b.timeToDevice.byPriority.mapValues(\.p99), a.timeToDevice.byPriority.mapValues(\.p99))
        XCTAssertEqual(merged.violations(), [])
    }

    func testWithoutADeviceModelTheReportHasNoDeviceSection() throws {
        let dir = try ScratchFolder.make("device-model-off")
        defer { ScratchFolder.remove(dir) }
        var request = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/leave-requests.yaml").path)
        request.outDirectory = dir.path
        XCTAssertNil(try ReplayRun.execute(request, log: { _ in }).report.device)
    }
}

/// The device rules of an SLO: judged on the device section, and missed with the reason when devices were not modelled.
final class DeviceSLOTests: XCTestCase {
    func testTheDeviceRulesAreJudgedOnTheDeviceSection() throws {
        let dir = try ScratchFolder.make("device-slo")
        defer { ScratchFolder.remove(dir) }
        let model = dir.appendingPathComponent("model.yaml")
        try "simulator:\n  device: { activity_budget_per_hour: 1, activity_budget_burst: 1 }\n".write(to: model, atomically: true, encoding: .utf8)
        var request = RunRequest(profilePath: DeviceModelReplayTests.repo.appendingPathComponent("profiles/leave-requests.yaml").path)
        request.outDirectory = dir.appendingPathComponent("modelled").path
        request.overrides.apnsModel = model.path
        request.overrides.sloMaxThrottledShare = 0.01
        request.overrides.sloP99TimeToDevice = .milliseconds(1)
        let report = try ReplayRun.execute(request, log: { _ in }).report
        let d = try XCTUnwrap(report.device)
        let checks = SLOCheck.checks(report).filter { $0.what.contains("device") }
        XCTAssertEqual(checks.map(\.met), [true, false], checks.map(\.line).joined(separator: "\n"))
        XCTAssertTrue(checks[1].actual.hasSuffix(" (\(d.outcomes["throttled"]!))"), checks[1].actual)
        XCTAssertGreaterThan(d.outcomes["throttled"]!, 0)

        request.overrides.apnsModel = nil
        request.outDirectory = dir.appendingPathComponent("unmodelled").path
        let plain = try ReplayRun.execute(request, log: { _ in }).report
        XCTAssertEqual(SLOCheck.checks(plain).filter { $0.what.contains("device") }.map(\.line), [
            "✗ p99 time to device (from the event, recorded time): devices not modelled (no device: in the simulator's section), "
                + "target ≤ 1 ms (at most)",
            "✗ delivered pushes throttled on the device: devices not modelled (no device: in the simulator's section), target ≤ 1.00 % (at most)",
        ])
    }
}
