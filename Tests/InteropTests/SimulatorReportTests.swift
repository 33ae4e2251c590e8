import Foundation
import TestSupport
import XCTest

/// `apnsbench simulate --report` with senders that are not apnsbench (Peers/: a Python sender on PyPI's h2,
/// a Go sender on golang.org/x/net/http2): planted dead tokens, payloads that are not JSON, payloads the
/// device would not decode and, in one run, another app's topic. The report counts each exactly; `report`
/// reads it; `compare` of two honest runs exits 0 and of an honest and a planted one exits 2 naming it.
final class SimulatorReportTests: XCTestCase {
    static let peers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Peers")
    let model = RepoFiles.path("profiles/models/OrderChangesAttributes.swift")

    /// A simulator configuration whose listed tokens (`%064x` of every `deadEvery`-th push) are dead (410).
    func configuration(in folder: URL, pushes: Int, deadEvery: Int) throws -> String {
        let dead = stride(from: deadEvery, through: pushes, by: deadEvery).map { String(format: "%064x com.example.interop Unregistered", $0) }
        try (dead.joined(separator: "\n") + "\n").write(to: folder.appendingPathComponent("dead.txt"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("sim.yaml").path
        try "devices: { file: dead.txt }\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// One simulator with a report, `send` run against it, the simulator stopped by `POST /stop`; the report's JSON.
    func receive(into report: String, config: String, h2c: Bool, send: (SimulateProcess) throws -> (status: Int32, output: String)) throws -> [String: Any] {
        let sim = try SimulateProcess(arguments: (h2c ? ["--h2c"] : []) + ["--config", config, "--report", report, "--activity-model", model,
                                                                           "--control-listen", "127.0.0.1:0"])
        addTeardownBlock { _ = sim.stop() }
        let sent = try send(sim)
        XCTAssertEqual(sent.status, 0, sent.output)
        let control = try XCTUnwrap(sim.child.output.all.first { $0.hasPrefix("control: ") }.map { String($0.dropFirst(9)) })
        let post = try runChild("/usr/bin/env", ["python3", "-c", "import sys, urllib.request; "
            + "print(urllib.request.urlopen(urllib.request.Request(sys.argv[1], method='POST')).status)", control])
        XCTAssertEqual(post.output.trimmingCharacters(in: .whitespacesAndNewlines), "202", post.output)
        XCTAssertEqual(try sim.child.wait(bound: 60), 0, sim.child.output.text)
        XCTAssertTrue(sim.child.output.text.contains("apnsbench simulate: stopped (POST /stop)"), sim.child.output.text)
        let data = try Data(contentsOf: URL(fileURLWithPath: report + "/report.json"))
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func python(_ sim: SimulateProcess, pushes: Int, planted: Bool) throws -> (status: Int32, output: String) {
        var env = ["BEARER": String(sim.bearer.dropFirst("bearer ".count)), "BAD_PAYLOAD_EVERY": "100", "UNDECODABLE_EVERY": "100"]
        if planted { env["BAD_TOPIC_EVERY"] = "100" }
        return try runChild("/usr/bin/env", ["python3", Self.peers.appendingPathComponent("h2_sender.py").path, sim.host, String(sim.port),
            String(pushes), "2"],
                            environment: env)
    }

    /// 300 pushes over 2 connections: odd ones alerts (priority 5), even ones Live Activity updates
    /// (priority 10). Pushes 1, 101, 201 are not JSON (alerts); 4, 104, 204 lack `totalItems` (updates the
    /// device would not decode); every 50th token is dead; planted: 2, 102, 202 to another app's topic.
    func testAPythonSendersPushesAreCountedExactlyAndComparedLikeRuns() throws {
        let probe = try runChild("/usr/bin/env", ["python3", "-c", "import h2"])
        guard probe.status == 0 else { throw InteropError("the Python package h2 is not installed: run scripts/install-deps.sh --test") }
        let dir = try ScratchFolder.make("simreport", removedBy: addTeardownBlock)
        let config = try configuration(in: dir, pushes: 300, deadEvery: 50)
        let a = dir.appendingPathComponent("a").path, b = dir.appendingPathComponent("b").path, p = dir.appendingPathComponent("planted").path
        let report = try receive(into: a, config: config, h2c: true) { try python($0, pushes: 300, planted: false) }
        _ = try receive(into: b, config: config, h2c: true) { try python($0, pushes: 300, planted: false) }
        _ = try receive(into: p, config: config, h2c: true) { try python($0, pushes: 300, planted: true) }

        let pushes = try XCTUnwrap(report["pushes"] as? [String: Any])
        XCTAssertEqual(pushes["planned"] as? Int, 300)
        XCTAssertEqual(pushes["delivered"] as? Int, 291)
        let rejected = try XCTUnwrap(pushes["rejected"] as? [String: [String: Int]])
        XCTAssertEqual(rejected.mapValues { $0["count"] ?? -1 }, ["Unregistered": 6, "BadPayload": 3], "\(rejected)")
        XCTAssertEqual(rejected["Unregistered"]?["status"], 410)
        let wouldNotDecode = try XCTUnwrap(pushes["wouldNotDecode"] as? [String: Any], "\(pushes)")
        XCTAssertEqual(wouldNotDecode["total"] as? Int, 3, "\(wouldNotDecode)")
        let received = try XCTUnwrap(report["received"] as? [String: Any])
        let rows = try XCTUnwrap(received["requests"] as? [[String: Any]]).map { r in
            "\(r["pushType"]!) \(r["topic"]!) \(r["priority"]!) \(r["answer"]!): \(r["count"]!)"
        }
        XCTAssertEqual(rows, ["alert com.example.interop 5 200: 147",
                              "liveactivity com.example.interop.push-type.liveactivity 10 200: 144",
                              "liveactivity com.example.interop.push-type.liveactivity 10 Unregistered: 6",
                              "alert com.example.interop 5 BadPayload: 3"])
        let connections = try XCTUnwrap(received["connections"] as? [String: Any])
        XCTAssertEqual(connections["opened"] as? Int, 2)
        XCTAssertEqual(connections["requestsPerConnection"] as? [Int], [150, 150])
        XCTAssertEqual((received["providerTokens"] as? [String: Int])?["verified"], 2, "one signing seen per connection")
        let budget = try XCTUnwrap(received["liveActivityBudget"] as? [String: Int])
        XCTAssertEqual(budget["tokens"], 150)
        XCTAssertEqual(budget["mostPerToken"], 1)

        let connectionsOpenStreams = try XCTUnwrap(connections["mostOpenStreams"] as? Int)
        XCTAssertTrue((1...50).contains(connectionsOpenStreams), "the sender keeps at most 50 streams open: \(connectionsOpenStreams)")
        let latency = try XCTUnwrap(report["latency"] as? [String: Any])
        XCTAssertEqual((latency["byPushType"] as? [String: Any])?.count, 0, "alerts and Live Activities delivered: not one push type")
        XCTAssertEqual(report["stopReason"] as? String, "POST /stop")

        let summary = try String(contentsOfFile: a + "/summary.md", encoding: .utf8)
        XCTAssertTrue(summary.contains("| rejected: Unregistered (410) | 6 |"), summary)
        // What a sender's report measured, named as such: no run's latency views, no engine of apnsbench's.
        XCTAssertTrue(summary.contains("**Stopped:** requested (POST /stop)\n"), summary)
        XCTAssertTrue(summary.contains("## Time in the simulator (delivered pushes only, µs)\n"), summary)
        XCTAssertTrue(summary.contains("| | time in the simulator (request's last frame read to its answer due) |\n|:--|--:|\n| count | 291 |\n"), summary)
        XCTAssertFalse(summary.contains("response time"), summary)
        XCTAssertFalse(summary.contains("## Engine and environment"), summary)
        XCTAssertTrue(summary.contains("## The sender's side (as the simulator saw it)\n\n- arrivals a second: peak "), summary)
        XCTAssertTrue(summary.contains("- open streams: at most \(connectionsOpenStreams) requests awaiting an answer at once on one connection\n"), summary)
        XCTAssertTrue(summary.contains("- connections: 2 opened, 2 closed; requests per connection: least 150, median 150, most 150\n"), summary)
        XCTAssertTrue(summary.contains("- provider tokens: 2 verified (signings seen, once per connection), 150.0 requests per token; "
            + "0 TooManyProviderTokenUpdates, 0 ExpiredProviderToken, 0 invalid or missing\n"), summary)
        XCTAssertTrue(summary.contains("| liveactivity | com.example.interop.push-type.liveactivity | 10 | Unregistered | 6 |"), summary)
        let html = try String(contentsOfFile: a + "/report.html", encoding: .utf8)
        XCTAssertTrue(html.contains("<h2>Requests received by the simulator</h2>"), "report.html has the received section")
        XCTAssertTrue(html.contains("<h2>The sender&#39;s side (as the simulator saw it)</h2>"), "report.html has the sender's side")
        XCTAssertTrue(html.contains("<p class=\"meta\">Stopped: requested (POST /stop)</p>"), "report.html names the requested stop")
        XCTAssertFalse(html.contains("response time"), "report.html has no run's response time")
        let check = try apnsbench(["report", "--check", a + "/report.json"])
        XCTAssertEqual(check.status, 0, check.output)

        // A folder that holds a report is not replaced without --force, before anything listens.
        let again = try apnsbench(["simulate", "--port", "0", "--report", a])
        XCTAssertEqual(again.status, 64, again.output)
        XCTAssertTrue(again.output.contains("--report \(a) already holds a report"), again.output)

        let same = try apnsbench(["compare", a, b, "--format", "md", "--summary"])
        XCTAssertEqual(same.status, 0, same.output)
        let changed = try apnsbench(["compare", a, p, "--format", "md", "--summary"])
        XCTAssertEqual(changed.status, 2, changed.output)
        XCTAssertTrue(changed.output.contains("| rejected TopicDisallowed | 0 | 3 |"), changed.output)
    }

    /// The Go sender over TLS: 1,000 Live Activity pushes, every 50th token dead, every 100th not JSON,
    /// every 100th one the device would not decode.
    func testAGoSendersPushesAreCountedExactly() throws {
        let go = try requireTool("go", package: "Debian golang-go and golang-golang-x-net-dev")
        let binary = try ScratchFolder.make("gosender", removedBy: addTeardownBlock).appendingPathComponent("gosender").path
        let built = try runChild(go, ["build", "-o", binary, Self.peers.appendingPathComponent("gosender.go").path],
                                 environment: ["GO111MODULE": "off", "GOPATH": "/usr/share/gocode"])
        XCTAssertEqual(built.status, 0, built.output)
        let dir = try ScratchFolder.make("simreport", removedBy: addTeardownBlock)
        let config = try configuration(in: dir, pushes: 1000, deadEvery: 50)
        let out = dir.appendingPathComponent("go").path
        let report = try receive(into: out, config: config, h2c: false) { sim in
            try runChild(binary, [sim.url, "1000", "20"], environment: [
                "BEARER": String(sim.bearer.dropFirst("bearer ".count)), "SSL_CERT_FILE": sim.caPath,
                "BAD_PAYLOAD_EVERY": "100", "UNDECODABLE_EVERY": "100",
            ])
        }
        let pushes = try XCTUnwrap(report["pushes"] as? [String: Any])
        XCTAssertEqual(pushes["planned"] as? Int, 1000)
        XCTAssertEqual(pushes["delivered"] as? Int, 970)
        let rejected = try XCTUnwrap(pushes["rejected"] as? [String: [String: Int]])
        XCTAssertEqual(rejected.mapValues { $0["count"] ?? -1 }, ["Unregistered": 20, "BadPayload": 10], "\(rejected)")
        XCTAssertEqual((pushes["wouldNotDecode"] as? [String: Any])?["total"] as? Int, 10)
        let summary = try String(contentsOfFile: out + "/summary.md", encoding: .utf8)
        XCTAssertTrue(summary.contains("| liveactivity | com.example.interop.push-type.liveactivity | 10 | 200 | 970 |"), summary)
    }
}
