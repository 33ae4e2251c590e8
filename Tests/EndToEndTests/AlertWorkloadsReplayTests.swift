import APNsCore
import Foundation
import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// The alert profiles end to end (`apnsbench run profiles/X.yaml`): profile → embedded simulator over TLS on
/// loopback → libcurl engine → report, with counts that add up and nothing rejected.
final class AlertWorkloadsReplayTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("e2e-alert", removedBy: addTeardownBlock)
    }

    /// Runs a shipped profile and checks what every profile must show: both balances, one event per
    /// line, no rejections, and delivered = planned − the pushes not sent by design (`notSentByDesign`).
    @discardableResult
    func runShipped(_ name: String, notSentByDesign: Set<String>,
                    file: StaticString = #filePath, line: UInt = #line) throws -> RunReport {
        var options = RunRequest(profilePath: Self.repo.appendingPathComponent("profiles/\(name).yaml").path)
        options.outDirectory = scratch.appendingPathComponent(name).path
        let result = try ReplayRun.execute(options, log: { _ in })
        let report = result.report
        let p = report.pushes
        XCTAssertNil(result.stoppedAt, file: file, line: line)
        XCTAssertEqual(report.violations(), [], file: file, line: line)
        XCTAssertEqual(p.delivered + p.rejectedTotal + p.failedTotal + p.timedOut + p.notSentTotal, p.planned, file: file, line: line)
        XCTAssertEqual(p.rejectedTotal, 0, "\(p.rejected)", file: file, line: line)
        XCTAssertEqual(p.failedTotal, 0, "\(p.failed)", file: file, line: line)
        XCTAssertEqual(p.timedOut, 0, file: file, line: line)
        XCTAssertEqual(Set(p.notSent.keys), notSentByDesign, "\(p.notSent)", file: file, line: line)
        XCTAssertEqual(p.delivered, p.planned - notSentByDesign.reduce(0) { $0 + (p.notSent[$1] ?? 0) }, file: file, line: line)

        let lines = try String(contentsOfFile: Self.repo.appendingPathComponent("profiles/streams/\(name).ndjson").path, encoding: .utf8)
            .split(separator: "\n").count
        XCTAssertGreaterThanOrEqual(lines, 1000, file: file, line: line)
        XCTAssertEqual(report.events.read, lines, file: file, line: line)
        XCTAssertTrue(report.events.balanced, file: file, line: line)
        XCTAssertEqual(report.events.invalidTotal, 0, "\(report.events.badLineSamples)", file: file, line: line)
        XCTAssertEqual(report.simulator?["accepted"], p.delivered, file: file, line: line)
        XCTAssertEqual(report.configuration.workload.pushType, .alert, file: file, line: line)
        let loaded = try RunReport.load(from: scratch.appendingPathComponent("\(name)/report.json").path)
        XCTAssertEqual(loaded.pushes, p, file: file, line: line)
        return report
    }

    func testCDBLLeaveProfileReplaysWithMixedPriorities() throws {
        let report = try runShipped("cdbl-leave", notSentByDesign: ["no_token"])
        XCTAssertEqual(report.events.producedPushes, report.pushes.planned, "one push per notify event")
        XCTAssertEqual(report.events.byKind, ["notify": 1500])
        XCTAssertGreaterThan(report.latency.byPriority["5"]?.serviceTime.count ?? 0, 0)
        XCTAssertGreaterThan(report.latency.byPriority["10"]?.serviceTime.count ?? 0, 0)
        XCTAssertEqual((report.latency.byPriority["5"]?.serviceTime.count ?? 0) + (report.latency.byPriority["10"]?.serviceTime.count ?? 0),
                       report.pushes.delivered)
    }

    func testKSRCranesProfileReplaysWithMixedPriorities() throws {
        let report = try runShipped("ksr-cranes", notSentByDesign: ["no_token"])
        XCTAssertEqual(report.events.producedPushes, report.pushes.planned)
        XCTAssertGreaterThan(report.latency.byPriority["5"]?.serviceTime.count ?? 0, 0)
        XCTAssertGreaterThan(report.latency.byPriority["10"]?.serviceTime.count ?? 0, 0)
    }

    func testEverdayApprovalsProfileFansOutToParentDevices() throws {
        let report = try runShipped("everday-approvals", notSentByDesign: ["no_recipients"])
        let registrations = report.events.byKind["account.registered"] ?? 0
        XCTAssertGreaterThan(registrations, 0)
        XCTAssertEqual(report.events.producedPushes, registrations, "only registrations plan pushes")
        XCTAssertEqual(report.events.stateOnly, report.events.read - registrations)
        XCTAssertGreaterThan(report.pushes.planned, registrations, "registrations fan out to several devices")
    }

    func testCarpoolProfileFansOutOverEachRidesRidersOnTheWire() throws {
        let report = try runShipped("carpool", notSentByDesign: ["no_recipients", "unknown_target"])
        let rides = report.events.byKind["ride.requested"] ?? 0
        XCTAssertGreaterThan(rides, 0)
        XCTAssertEqual(report.events.stateOnly, (report.events.byKind["rider.device"] ?? 0) + (report.events.byKind["ride.rider_removed"] ?? 0))
        XCTAssertGreaterThan(report.pushes.planned, 2 * rides, "rides fan out to several riders' devices")
        XCTAssertGreaterThan(report.latency.byPriority["5"]?.serviceTime.count ?? 0, 0)
        XCTAssertGreaterThan(report.latency.byPriority["10"]?.serviceTime.count ?? 0, 0)
    }

    /// A hand-written Everday stream: a token rotation keeps the device count (the rotated device gets one
    /// push, not two), a bad line is named with its line number, and the totals add up.
    func testEverdayStreamWithRotationAndBadLines() throws {
        let t = (1...4).map { String(repeating: String(format: "%02x", $0 * 17), count: 32) }
        let lines = [
            #"{"at":"2025-03-03T08:00:00Z","kind":"parent.device","device_id":"A","push_token":"\#(t[0])","account_id":1}"#,
            #"{"at":"2025-03-03T08:01:00Z","kind":"parent.device","device_id":"B","push_token":"\#(t[1])","account_id":2}"#,
            #"{"at":"2025-03-03T08:02:00Z","kind":"account.registered","user_id":1,"username":"newkid","first_name":"New","last_name":"Kid"}"#,
            #"{"at":"2025-03-03T08:03:00Z","kind":"parent.device","device_id":"A","push_token":"\#(t[2])","account_id":1}"#,
            #"{"at":"2025-03-03T08:04:00Z","kind":"parent.device","device_id":"C","push_token":"zz","account_id":3}"#,
            #"{"at":"2025-03-03T08:05:00Z","kind":"account.registered","user_id":2,"username":"kid \"two\" 🦖"}"#,
        ]
        let stream = scratch.appendingPathComponent("everday.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: stream, atomically: true, encoding: .utf8)
        let profile = scratch.appendingPathComponent("everday.yaml")
        try """
            name: everday-test
            workload: everday-approvals
            stream: \(stream.path)
            recipe: \(RepoFiles.recipe("everday-approvals"))
            push_type: alert
            bundle_id: au.batserver.everday
            """.write(to: profile, atomically: true, encoding: .utf8)
        var options = RunRequest(profilePath: profile.path)
        options.outDirectory = scratch.appendingPathComponent("everday-report").path
        let report = try ReplayRun.execute(options, log: { _ in }).report
        XCTAssertEqual(report.pushes.delivered, 4, "2 devices x 2 registrations")
        XCTAssertEqual(report.pushes.notSent, ["bad_line": 1])
        XCTAssertEqual(report.pushes.planned, 5)
        XCTAssertEqual(report.violations(), [])
        XCTAssertEqual(report.events.badLineSamples.map(\.line), [5])
        XCTAssertEqual(report.events.badLineSamples.first?.cause, "bad_value")
        XCTAssertTrue(report.events.balanced)
    }

    func testUnknownNotifyTypeIsNamedWithItsLine() throws {
        let token = String(repeating: "ab", count: 32)
        let lines = [
            #"{"at":"2025-02-02T04:00:00Z","kind":"notify","token":"\#(token)","type":"LEAVE_APPROVED","title":"Leave Approved","body":"ok","priority":10}"#,
            #"{"at":"2025-02-02T04:00:01Z","kind":"notify","token":"\#(token)","type":"LEAVE_TELEPORTED","title":"?","body":"?","priority":10}"#,
            #"{"at":"2025-02-02T04:00:02Z","kind":"notify","token":"\#(token)","type":"LEAVE_REJECTED","title":"Leave Rejected","body":"no","priority":1}"#,
        ]
        let stream = scratch.appendingPathComponent("cdbl.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(to: stream, atomically: true, encoding: .utf8)
        let profile = scratch.appendingPathComponent("cdbl.yaml")
        try """
            name: cdbl-test
            workload: cdbl-leave
            stream: \(stream.path)
            recipe: \(RepoFiles.recipe("cdbl-leave"))
            push_type: alert
            bundle_id: bd.com.cdbl.lms
            bad_lines: stop
            """.write(to: profile, atomically: true, encoding: .utf8)
        var options = RunRequest(profilePath: profile.path)
        options.outDirectory = scratch.appendingPathComponent("cdbl-report").path
        let result = try ReplayRun.execute(options, log: { _ in })
        XCTAssertEqual(result.stoppedAt?.line, 2)
        XCTAssertTrue(result.stoppedAt?.description.contains("LEAVE_TELEPORTED") ?? false, "\(String(describing: result.stoppedAt))")
        XCTAssertEqual(result.report.pushes.delivered, 1)
        XCTAssertEqual(result.report.violations(), [])
    }
}
