import APNsCore
import APNsEngine
import Foundation
import Reporting
import XCTest
@testable import Harness

/// `--metrics-listen`: OpenMetrics text over HTTP/1.1, on a port the system picks.
final class MetricsServerTests: XCTestCase {
    func testParsesHostAndPortAndRefusesTheRest() {
        XCTAssertEqual(MetricsServer.parse("0.0.0.0:9464").map { "\($0.host) \($0.port)" }, "0.0.0.0 9464")
        XCTAssertEqual(MetricsServer.parse("127.0.0.1:0").map { "\($0.host) \($0.port)" }, "127.0.0.1 0")
        XCTAssertEqual(MetricsServer.parse("[::1]:9464").map { "\($0.host) \($0.port)" }, "::1 9464")
        XCTAssertEqual(MetricsServer.parse("localhost:65535").map { "\($0.host) \($0.port)" }, "localhost 65535")
        for bad in ["9464", ":9464", "host:", "host:x", "host:65536", "host:-1", ""] {
            XCTAssertNil(MetricsServer.parse(bad), bad)
        }
    }

    func testABadAddressIsAnErrorNamingIt() {
        XCTAssertThrowsError(try MetricsServer(listen: "9464", metrics: LiveMetrics(runID: "r", shard: 0))) { error in
            XCTAssertEqual("\(error)", "--metrics-listen '9464' must be HOST:PORT, like 0.0.0.0:9464 or 127.0.0.1:0")
        }
    }

    func testServesTheCurrentMetricsAtSlashMetrics() throws {
        let live = LiveMetrics(runID: "served", shard: 1)
        let server = try MetricsServer(listen: "127.0.0.1:0", metrics: live)
        defer { server.stop() }
        XCTAssertGreaterThan(server.port, 0, "port 0 got a real port")
        XCTAssertEqual(server.address, "127.0.0.1:\(server.port)")

        let first = try HTTPGet.request("/metrics", port: server.port)
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.headers["content-type"], "application/openmetrics-text; version=1.0.0; charset=utf-8")
        XCTAssertEqual(first.headers["content-length"], String(first.body.utf8.count))
        XCTAssertEqual(first.body, live.text())
        XCTAssertTrue(first.body.contains("# TYPE apnsbench_pushes counter\n"), first.body)
        XCTAssertFalse(first.body.contains("apnsbench_pushes_total{"), "nothing ended yet: \(first.body)")

        live.update(LiveMetricsTests.progress())
        let second = try HTTPGet.request("/metrics?x=1", port: server.port)
        XCTAssertEqual(second.status, 200)
        XCTAssertTrue(second.body.contains(#"apnsbench_pushes_total{run_id="served",shard="1",outcome="delivered"} 5"#), second.body)
        XCTAssertTrue(second.body.contains(#"apnsbench_in_flight{run_id="served",shard="1"} 6"#), second.body)
        XCTAssertTrue(second.body.hasSuffix("# EOF\n"), second.body)
    }

    func testOtherPathsAre404OtherMethods405AndHEADHasNoBody() throws {
        let server = try MetricsServer(listen: "127.0.0.1:0", metrics: LiveMetrics(runID: "r", shard: 0))
        defer { server.stop() }
        let other = try HTTPGet.request("/", port: server.port)
        XCTAssertEqual(other.status, 404)
        XCTAssertEqual(other.body, "apnsbench serves /metrics\n")
        let post = try HTTPGet.request("/metrics", method: "POST", port: server.port)
        XCTAssertEqual(post.status, 405)
        let head = try HTTPGet.request("/metrics", method: "HEAD", port: server.port)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body, "")
        XCTAssertGreaterThan(Int(head.headers["content-length"] ?? "") ?? 0, 0, "the length GET would send")
    }

    func testAPortInUseIsAnErrorAndStopClosesTheListener() throws {
        let first = try MetricsServer(listen: "127.0.0.1:0", metrics: LiveMetrics(runID: "r", shard: 0))
        XCTAssertThrowsError(try MetricsServer(listen: "127.0.0.1:\(first.port)", metrics: LiveMetrics(runID: "r", shard: 0))) { error in
            XCTAssertTrue("\(error)".hasPrefix("--metrics-listen 127.0.0.1:\(first.port): cannot listen: "), "\(error)")
        }
        first.stop()
        XCTAssertThrowsError(try HTTPGet.request("/metrics", port: first.port), "nothing listens once stopped")
    }

    /// A real run with `--metrics-listen` and `--metrics-linger`: while it lingers the endpoint serves the
    /// totals of the report it wrote.
    func testAfterARunTheEndpointServesItsReportsTotals() throws {
        let fixture = try HarnessFixture(self)
        var request = RunRequest(profilePath: try fixture.profile())
        request.outDirectory = fixture.path("out")
        request.metricsListen = "127.0.0.1:0"
        request.metricsLingerSeconds = 600
        request.runID = "lingering"
        let stop = RunStop()
        request.stop = stop
        let lines = LogLines()
        let finished = DispatchSemaphore(value: 0)
        let outcome = LockedBox<Result<RunResult, Error>>()
        Thread.detachNewThread { [request] in
            outcome.value = Result { try ReplayRun.execute(request, log: { lines.append($0) }) }
            finished.signal()
        }
        let lingering = lines.wait(bound: 300) { $0.contains { $0.contains("serving the final metrics") } }
        guard lingering else {
            stop.request(drainSeconds: 0)
            _ = finished.wait(timeout: .now() + 300)
            return XCTFail("the run did not start lingering within 300 s: \(lines.all) \(String(describing: outcome.value))")
        }
        let line = try XCTUnwrap(lines.all.first { $0.contains("metrics at http://127.0.0.1:") }, "\(lines.all)")
        let address = try XCTUnwrap(line.range(of: "127\\.0\\.0\\.1:[0-9]+", options: .regularExpression), line)
        let port = try XCTUnwrap(Int(line[address].split(separator: ":")[1]), line)
        let served = try HTTPGet.request("/metrics", port: port)
        stop.request(drainSeconds: 0)  // ends the linger
        XCTAssertEqual(finished.wait(timeout: .now() + 300), .success, "the linger ends on a requested stop")
        let result = try XCTUnwrap(outcome.value).get()
        let report = try RunReport.load(from: fixture.path("out/report.json"))
        XCTAssertEqual(report.pushes, result.report.pushes)

        XCTAssertEqual(served.status, 200)
        let p = report.pushes
        XCTAssertEqual(p.delivered, 7)
        XCTAssertTrue(served.body.contains(#"apnsbench_pushes_total{run_id="lingering",shard="0",outcome="delivered"} \#(p.delivered)"#), served.body)
        XCTAssertTrue(served.body.contains(#"apnsbench_pushes_total{run_id="lingering",shard="0",outcome="not_sent",reason="no_token"} 1"#), served.body)
        XCTAssertTrue(served.body.contains(#"apnsbench_response_time_seconds_count{run_id="lingering",shard="0",priority="10"} \#(p.delivered)"#), served.body)
        XCTAssertTrue(served.body.contains(#"apnsbench_in_flight{run_id="lingering",shard="0"} 0"#), served.body)
        XCTAssertTrue(served.body.contains(#"apnsbench_provider_token_signings_total{run_id="lingering",shard="0"} \#(report.engine.providerTokenSignings)"#),
            served.body)
    }
}

/// Log lines from another thread, waited on with a bound.
final class LogLines: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []

    func append(_ line: String) { condition.lock(); lines.append(line); condition.broadcast(); condition.unlock() }
    var all: [String] { condition.lock(); defer { condition.unlock() }; return lines }

    /// Whether `predicate` held within `bound` seconds.
    func wait(bound: Double, until predicate: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(bound)
        condition.lock()
        defer { condition.unlock() }
        while !predicate(lines) {
            if !condition.wait(until: deadline) { return predicate(lines) }
        }
        return true
    }
}

/// A value set on one thread and read on another after a semaphore.
final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T?
    var value: T? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
