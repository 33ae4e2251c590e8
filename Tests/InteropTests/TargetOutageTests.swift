import APNsCore
import Foundation
import Reporting
import TestSupport
import XCTest

/// A standalone simulator that goes away in the middle of a paced, looping run and comes back on the same
/// port: killed (h2c, and TLS with its certificates kept), or stopped as for maintenance (GOAWAY, then
/// closed). Nothing due before the run's end is lost: the pushes the outage caught are resent once the
/// target is back, the report balances, and its timeline shows the outage (connections lost or ended,
/// resends after transport errors) and report.html draws it.
final class TargetOutageTests: XCTestCase {
    /// The run: 50 pushes/s for 12 s; the target is gone from about 2 s after the run's start line to about
    /// 5 s (plus its restart), which leaves the run 7 s to resend what the outage caught.
    static let seconds = 12
    static let downAt = 2.0, upAt = 5.0

    func testAKilledH2cTargetThatComesBackLosesNothing() throws {
        try outage(tls: false, stop: SIGKILL)
    }

    func testAKilledTLSTargetWithItsCertificatesKeptLosesNothing() throws {
        try outage(tls: true, stop: SIGKILL)
    }

    func testATargetThatSendsGoAwayAndClosesLosesNothing() throws {
        try outage(tls: true, stop: SIGTERM)
    }

    private func outage(tls: Bool, stop signal: Int32, file: StaticString = #filePath, line: UInt = #line) throws {
        // Kept across the restart, so the run still trusts the CA it read at its start.
        let tlsDir = try ScratchFolder.make("outage-tls", removedBy: addTeardownBlock)
        let first = try SimulateProcess(arguments: simulatorArguments(tls: tls ? tlsDir : nil, port: 0))
        let folder = first.folder
        defer { ScratchFolder.remove(folder) }
        let out = folder.appendingPathComponent("run")
        let profile = try writeProfile(in: folder, bundleID: first.bundleID)
        var arguments = ["run", profile, "--target", first.url, "--rate", "50", "--loop", "--duration", "\(Self.seconds)s",
                         "--out", out.path, "--key-path", first.keyPath, "--key-id", first.key.keyID, "--team-id", first.key.teamID]
        if tls { arguments += ["--ca-cert", first.caPath] }
        let run = try ChildProcess(APNsBenchProcess.binary(), arguments)
        // The outage is timed from the run's start line, not from the process's start, which a busy machine delays.
        XCTAssertTrue(run.output.wait(timeout: 120, until: { $0.contains { $0.contains("apnsbench: replaying") } }), run.output.text,
                      file: file, line: line)
        Thread.sleep(forTimeInterval: Self.downAt)
        first.child.send(signal)
        XCTAssertNotNil(try? first.child.wait(bound: 30), "the simulator went away", file: file, line: line)
        let downFor = Self.upAt - Self.downAt
        Thread.sleep(forTimeInterval: downFor)
        let second = try SimulateProcess(arguments: simulatorArguments(tls: tls ? tlsDir : nil, port: first.port), restarting: first)
        // Stopped (and the shared folder removed) once the report has been read.
        defer { _ = second.stop() }
        let status = try run.wait()
        XCTAssertEqual(status, 0, run.output.text, file: file, line: line)

        let report = try RunReport.load(from: out.appendingPathComponent("report.json").path)
        let p = report.pushes
        XCTAssertTrue(p.balanced, "\(p)", file: file, line: line)
        XCTAssertEqual(report.violations(), [], file: file, line: line)
        // Nothing due before the end was lost: every push due was delivered, but those the recording
        // itself leaves without a token.
        XCTAssertEqual(p.failedTotal + p.timedOut + p.rejectedTotal, 0, "\(p)", file: file, line: line)
        XCTAssertEqual(Set(p.notSentDueByCause.keys).subtracting(["no_token"]), [], "\(p.notSent)", file: file, line: line)
        XCTAssertEqual(p.delivered + p.notSentDue, p.due, file: file, line: line)
        // Most of the pushes due (5/8 of 50/s over the run; the recording leaves some without a token).
        XCTAssertGreaterThan(p.delivered, Self.seconds * 50 * 5 / 8, file: file, line: line)

        // The timeline shows the outage: connections lost (killed) or ended by the server (GOAWAY), and
        // resends after transport errors, with an interval in which the target answered nothing.
        let tl = report.timeline
        let ended = tl.reduce(0) { $0 + ($1.connectionsLost ?? 0) + ($1.goAways ?? 0) }
        XCTAssertGreaterThan(ended, 0, "no connection was lost or ended", file: file, line: line)
        if signal == SIGTERM {
            // The stopped simulator says what it sent: GOAWAY on each connection (the run sees the
            // connections end, and the reconnect refused, as a loss).
            XCTAssertTrue(first.child.output.text.contains("GOAWAY sent: Shutdown"), first.child.output.text, file: file, line: line)
        }
        let transportResends = tl.reduce(0) { $0 + $1.transportResends }
        XCTAssertGreaterThan(transportResends, 0, "no resend after a transport error", file: file, line: line)
        XCTAssertGreaterThan(report.engine.reconnects, 0, file: file, line: line)
        let silent = tl.filter { $0.transportResends > 0 && $0.delivered == 0 }
        XCTAssertFalse(silent.isEmpty, "no interval without an answer: \(tl.map { ($0.second, $0.delivered, $0.resends ?? [:]) })", file: file, line: line)
        // The pushes the outage delayed count their wait from the intended send.
        let waitedMicros = Double(report.latency.responseTime.max)
        XCTAssertGreaterThan(waitedMicros, downFor * 0.5 * 1e6, file: file, line: line)
        let html = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("Target unreachable from"), "report.html names the outage", file: file, line: line)
        XCTAssertTrue(html.contains("Resends per second"), file: file, line: line)
        XCTAssertTrue(run.output.text.contains("outage     no answer from"), "the summary names the outage:\n\(run.output.text)", file: file, line: line)
    }

    /// TLS with its certificates kept in `tls`, or h2c when nil.
    private func simulatorArguments(tls: URL?, port: Int) -> [String] {
        (port == 0 ? [] : ["--port", "\(port)"]) + (tls.map { ["--tls-dir", $0.path] } ?? ["--h2c"])
    }

    private func writeProfile(in dir: URL, bundleID: String) throws -> String {
        let profiles = RepoFiles.root.appendingPathComponent("profiles").path
        let path = dir.appendingPathComponent("outage.yaml").path
        try """
            name: outage
            stream: \(profiles)/streams/leave-requests.ndjson
            recipe: \(profiles)/recipes/leave-requests.yaml
            bundle_id: \(bundleID)
            push_type: alert
            slo_min_delivered: 0.95
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
