import DeviceDelivery
import Foundation
import TestSupport
import XCTest
@testable import Reporting

final class RunReportTests: XCTestCase {
    /// What only the harness knows goes in when the report is built, section by section, and comes back from its JSON.
    func testTheHarnesssFactsAreInTheReportAsBuilt() throws {
        let recorder = Fixtures.mixedRecorder()
        let override = RunReport.PriorityOverrideCount(reached: 4, changed: 3)
        let (device, received, sends) = Self.sections()
        let facts = RunReport.RunFacts(runID: "r1", stopReason: "SIGINT", device: device, priorityOverride: override, pushKinds: [],
                                       sends: sends, received: received)
        let report = recorder.makeReport(configuration: Fixtures.configuration, events: Fixtures.mixedEvents(), environment: Fixtures.environment,
                                         engine: Fixtures.engine, startedAt: Fixtures.startedAt, durationSeconds: 1, facts: facts)
        XCTAssertEqual(report.runID, "r1")
        XCTAssertEqual(report.stopReason, "SIGINT")
        XCTAssertEqual(report.device, device)
        XCTAssertEqual(report.priorityOverride, override)
        XCTAssertEqual(report.pushKinds, [])
        XCTAssertEqual(report.sends, sends)
        XCTAssertEqual(report.received, received)
        XCTAssertNil(report.merged, "one process's run")
        XCTAssertEqual(try JSONDecoder().decode(RunReport.self, from: JSONEncoder().encode(report)), report)
    }

    /// The init takes every field: a report built with every section has no field left nil. A field added to
    /// the type but not to the init would be nil here.
    func testTheInitSetsEveryField() throws {
        let r = Fixtures.report(from: Fixtures.mixedRecorder())
        let (device, received, sends) = Self.sections()
        let staleness = LatencySummary(unit: "ms", count: 0, min: 0, p50: 0, p90: 0, p99: 0, p999: 0, max: 0, mean: 0)
        let whole = RunReport(
            generator: r.generator, startedAt: r.startedAt, durationSeconds: r.durationSeconds, configuration: r.configuration,
            environment: r.environment, events: r.events, pushes: r.pushes, latency: r.latency, throughput: r.throughput, timeline: r.timeline,
            engine: r.engine, simulator: [:], coalescing: .init(windowMillis: 1, pushesSaved: 0, staleness: staleness), stopReason: "SIGINT",
            openDescriptors: .init(atStart: 1, atEnd: 1),
            liveActivityBudget: .init(priority10PerHour: 1, windowSeconds: 3600, priority10Updates: 0, throttled: 0, activitiesThrottled: 0),
            runID: "r", broadcast: .init(channels: 0, storesRefused: 0, deleted: 0, kept: false, managementCalls: [:], followersNotSubscribed: 0),
            merged: .init(shards: 1, parts: []), device: device, priorityOverride: .init(reached: 0, changed: 0),
            received: received, pushKinds: [], sends: sends)
        let unset = Mirror(reflecting: whole).children.filter { child in
            let value = Mirror(reflecting: child.value)
            return value.displayStyle == .optional && value.children.isEmpty
        }
        XCTAssertEqual(unset.map { $0.label ?? "?" }, [])
    }

    /// A device section, a sender's received requests and its sends: sections only the harness or the simulator has.
    static func sections() -> (RunReport.DeviceDelivery, RunReport.Received, RunReport.Sends) {
        let none = RunReport.DeviceDelivery.TimeToDevice(byPriority: [:], byPushType: [:], histograms: .init(byPriority: [:], byPushType: [:]))
        let device = RunReport.DeviceDelivery(parameters: DeviceDeliveryParameters(), pushes: 5, outcomes: ["on_time": 5], replaced: [:], dropped: [:],
                                              shownStale: 0, timeToDevice: none)
        let received = RunReport.Received(requests: [.init(pushType: "alert", topic: "t", priority: "10", answer: "200", count: 5)],
                                          providerTokens: .init(verified: 1, tooManyUpdates: 0, expired: 0, invalidOrMissing: 0),
                                          connections: .init(opened: 1, closed: 1, requestsPerConnection: [5]), liveActivityBudget: nil)
        return (device, received, SendFindingsTests.sends())
    }

    func testMakeReportCarriesEveryCount() {
        let recorder = Fixtures.mixedRecorder()
        recorder.expectedPlanned = 18
        let report = Fixtures.report(from: recorder)

        XCTAssertEqual(report.schemaVersion, RunReport.currentSchemaVersion)
        XCTAssertEqual(report.schemaVersion, 2)
        XCTAssertEqual(report.generator, RunReport.Generator(name: "apnsbench", version: RunReport.Generator.defaultVersion))
        XCTAssertEqual(report.startedAt, "2025-04-16T10:00:00Z")
        XCTAssertEqual(report.durationSeconds, 31.25)
        XCTAssertEqual(report.configuration, Fixtures.configuration, "the run's configuration, verbatim")
        XCTAssertEqual(report.environment, Fixtures.environment)
        XCTAssertEqual(report.engine, Fixtures.engine)
        XCTAssertEqual(report.simulator, ["accepted": 5, "rejected": 4])

        let p = report.pushes
        XCTAssertEqual(p.planned, 18)
        XCTAssertEqual(p.expectedPlanned, 18)
        XCTAssertEqual(p.delivered, 5)
        XCTAssertEqual(p.rejected, [
            "BadDeviceToken": .init(status: 400, count: 2),
            "TooManyRequests": .init(status: 429, count: 1),
            "HTTP502": .init(status: 502, count: 1),
        ])
        XCTAssertEqual(p.failed, ["curl_7_couldnt_connect": 2, "curl_56_recv_error": 1])
        XCTAssertEqual(p.timedOut, 2)
        XCTAssertEqual(p.notSent, ["no_token": 3, "run_stopped": 1])
        XCTAssertTrue(p.balanced)

        let e = report.events
        XCTAssertEqual(e.read, 5)
        XCTAssertEqual(e.producedPushes, 2)
        XCTAssertEqual(e.stateOnly, 1)
        XCTAssertEqual(e.invalid, ["unknown_request": 1, "bad_json": 1])
        XCTAssertEqual(e.badLineSamples.map(\.line), [7])
        XCTAssertTrue(e.balanced)

        XCTAssertEqual(report.latency.serviceTime.count, 5)
        XCTAssertEqual(report.latency.serviceTime.min, 2_000)
        XCTAssertEqual(Double(report.latency.serviceTime.p50), 6_000, accuracy: 6, "the middle of 2, 4, 6, 8, 10 ms, within 0.1 %")
        XCTAssertEqual(report.latency.serviceTime.max, 10_000)
        XCTAssertEqual(report.latency.responseTime.max, 15_000, "the 10 ms push was intended 5 ms before it was sent")
        XCTAssertEqual(Set(report.latency.byPriority.keys), ["5", "10"], "no delivered push at priority 1")
        XCTAssertEqual(report.latency.byPriority["5"]?.serviceTime.count, 2)
        XCTAssertEqual(report.latency.byPriority["10"]?.responseTime.count, 3)
        XCTAssertEqual(report.latency.undeliveredSent, 9)

        XCTAssertEqual(report.throughput.sent, 14)
        XCTAssertEqual(report.throughput.completed, 14)
        XCTAssertGreaterThan(report.throughput.pushesPerSecond, 0)
        XCTAssertEqual(report.timeline.map(\.sent).reduce(0, +), 14)
        XCTAssertEqual(report.timeline.map(\.delivered).reduce(0, +), 5)
        XCTAssertEqual(report.timeline.map(\.errors).reduce(0, +), 9)
    }

    func testAnUnbalancedRunIsReportedAsSuch() {
        // The events planned 20 pushes; only 18 outcomes were recorded.
        let report = Fixtures.report(from: Fixtures.mixedRecorder(), events: Fixtures.mixedEvents(planned: 20))
        XCTAssertEqual(report.pushes.expectedPlanned, 20)
        XCTAssertFalse(report.pushes.balanced)
    }

    func testJSONRoundTripIsLossless() throws {
        let report = Fixtures.report(from: Fixtures.mixedRecorder())
        let data = try report.encoded()
        let decoded = try JSONDecoder().decode(RunReport.self, from: data)
        XCTAssertEqual(decoded, report)

        let noSimulator = Fixtures.report(from: Fixtures.mixedRecorder(), simulator: nil)
        let noSimulatorData = try noSimulator.encoded()
        XCTAssertEqual(try JSONDecoder().decode(RunReport.self, from: noSimulatorData), noSimulator)
        let top = try XCTUnwrap(JSONSerialization.jsonObject(with: noSimulatorData) as? [String: Any])
        XCTAssertNil(top["simulator"], "an absent simulator block is omitted, not null")
        XCTAssertNotNil(top["configuration"])
    }

    func testJSONUsesTheDocumentedKeysAndHoldsNoToken() throws {
        let json = String(decoding: try Fixtures.report(from: Fixtures.mixedRecorder()).encoded(), as: UTF8.self)
        for key in ["\"schemaVersion\" : 2", "\"generator\"", "\"startedAt\"", "\"durationSeconds\"", "\"configuration\"",
                    "\"environment\"", "\"events\"", "\"pushes\"", "\"latency\"", "\"throughput\"", "\"timeline\"",
                    "\"engine\"", "\"simulator\"", "\"serviceTime\"", "\"responseTime\"", "\"byPriority\"",
                    "\"p999\"", "\"unit\" : \"us\"", "\"badLineSamples\"", "\"pushesPerSecond\""] {
            XCTAssertTrue(json.contains(key), "report.json lacks \(key)")
        }
        XCTAssertFalse(json.contains(Fixtures.deviceToken))
    }

    func testLoadReadsAWrittenReport() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        let report = Fixtures.report(from: Fixtures.mixedRecorder())
        let paths = try ReportWriter.write(report, to: dir)
        XCTAssertEqual(try RunReport.load(from: paths[0]), report)
    }

    func testLoadRefusesAnotherSchemaVersionNamingTheFile() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        let path = dir + "/future.json"
        var report = Fixtures.report(from: Fixtures.mixedRecorder())
        report.schemaVersion = 3
        try report.encoded().write(to: URL(fileURLWithPath: path))

        XCTAssertThrowsError(try RunReport.load(from: path)) { error in
            XCTAssertEqual(error as? ReportLoadError, .unknownSchemaVersion(path: path, found: 3, supported: 2))
            XCTAssertTrue(String(describing: error).contains(path), String(describing: error))
            XCTAssertTrue(String(describing: error).contains("schemaVersion 3"), String(describing: error))
        }
    }

    func testLoadRefusesAReportWithoutSchemaVersion() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        let path = dir + "/old.json"
        try Data(#"{"pushes": {}}"#.utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try RunReport.load(from: path)) { error in
            XCTAssertEqual(error as? ReportLoadError, .unknownSchemaVersion(path: path, found: nil, supported: 2))
        }
    }

    func testLoadNamesAMissingFile() {
        let path = "/nonexistent/apnsbench/report.json"
        XCTAssertThrowsError(try RunReport.load(from: path)) { error in
            XCTAssertEqual(error as? ReportLoadError, .missing(path: path))
            XCTAssertTrue(String(describing: error).contains(path))
        }
    }

    func testLoadNamesAFileThatIsNotJSON() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        let path = dir + "/report.json"
        try Data("# summary, not json\n".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try RunReport.load(from: path)) { error in
            guard case .notJSON(let named, _)? = error as? ReportLoadError else {
                return XCTFail("expected notJSON, got \(error)")
            }
            XCTAssertEqual(named, path)
            XCTAssertTrue(String(describing: error).contains(path))
        }
    }

    func testLoadNamesTheMissingFieldOfAMalformedReport() throws {
        let dir = try ScratchFolder.make("reporting", removedBy: addTeardownBlock).path
        let path = dir + "/report.json"
        let data = try Fixtures.report(from: Fixtures.mixedRecorder()).encoded()
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return XCTFail("report.json is not an object")
        }
        object["pushes"] = nil
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try RunReport.load(from: path)) { error in
            guard case .malformed(let named, let reason)? = error as? ReportLoadError else {
                return XCTFail("expected malformed, got \(error)")
            }
            XCTAssertEqual(named, path)
            XCTAssertTrue(reason.contains("pushes"), reason)
        }
    }
}
