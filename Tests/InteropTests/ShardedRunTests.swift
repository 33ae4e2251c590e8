import Foundation
import Histogram
import Reporting
import TestSupport
import XCTest

/// A sharded run on one machine: three `apnsbench run --shards 3` processes with JOB_COMPLETION_INDEX set
/// as a Kubernetes Indexed Job sets it, against one standalone `apnsbench simulate` over TLS trusted with
/// --ca-cert, merged with `apnsbench merge`, against one unsharded run of the same stream on the same
/// simulator. Shard 0 serves live metrics, parsed with prometheus_client's OpenMetrics parser during the run
/// and after it (their totals against its report.json).
final class ShardedRunTests: XCTestCase {
    private struct Samples: Decodable {
        struct Sample: Decodable {
            let name: String
            let labels: [String: String]
            let value: Double
        }
        let families: [String: String]
        let samples: [Sample]
        func value(_ name: String, _ labels: [String: String]) -> Double? {
            samples.first { sample in
                sample.name == name && labels.allSatisfy { k, v in sample.labels[k] == v }
                    && sample.labels.keys.allSatisfy { labels[$0] != nil || ["run_id", "shard"].contains($0) }
            }?.value
        }
    }

    func testThreeShardsMergeToTheCountsOfOneRunAndServeMetrics() throws {
        let python = try requireTool("python3", package: "python3")
        guard try runChild(python, ["-c", "import prometheus_client"]).status == 0 else {
            throw InteropError("the Python package prometheus-client is not installed: run scripts/install-deps.sh --test")
        }
        let work = try ScratchFolder.make("shards", removedBy: addTeardownBlock)
        // Dead tokens by a fraction of their hash: the same tokens answer 410 whichever process sends them.
        // One stream on one connection: each push is answered before the next is taken, so a 410 is always
        // back before the next push to that token goes, and which pushes end `Unregistered` and which
        // `dead_token` is the same in one process and in three. (With many in flight that split depends on
        // timing, in one process as much as in three; their sum does not.)
        let simulatorConfig = work.appendingPathComponent("simulator.yaml").path
        try "devices: { dead_fraction: 0.05, dead_reason: Unregistered, seed: 3 }\n".write(toFile: simulatorConfig, atomically: true, encoding: .utf8)
        let simulator = try SimulateProcess(arguments: ["--config", simulatorConfig])
        defer { _ = simulator.stop() }
        let profile = try Self.profile(in: work, bundleID: simulator.bundleID)
        let binary = try APNsBenchProcess.binary().path
        let common = ["--target", "https://127.0.0.1:\(simulator.port)", "--ca-cert", simulator.caPath,
                      "--key-path", simulator.keyPath, "--key-id", simulator.key.keyID, "--team-id", simulator.key.teamID,
                      "--connections", "1", "--streams", "1", "--rate", "120"]

        let startAt = Date().addingTimeInterval(3)
        let stamp = startAt.formatted(Date.ISO8601FormatStyle(timeZone: .gmt))
        let shardRoot = work.appendingPathComponent("run")
        var shards: [ChildProcess] = []
        for index in 0..<3 {
            var arguments = ["run", profile, "--shards", "3", "--run-id", "sharded-test", "--start-at", stamp,
                             "--out", shardRoot.appendingPathComponent("shard-\(index)").path] + common
            if index == 0 { arguments += ["--metrics-listen", "127.0.0.1:0", "--metrics-linger", "60s"] }
            shards.append(try ChildProcess(binary, arguments, environment: ["JOB_COMPLETION_INDEX": String(index)]))
        }
        // Shard 0 names its metrics port; fetch once the shards are sending.
        XCTAssertTrue(shards[0].output.wait(timeout: 30) { $0.contains { $0.contains("metrics at http://") } }, shards[0].output.text)
        let line = try XCTUnwrap(shards[0].output.all.first { $0.contains("metrics at http://") })
        let address = try XCTUnwrap(line.range(of: "127\\.0\\.0\\.1:[0-9]+", options: .regularExpression))
        let port = line[address].split(separator: ":").last!
        let metricsURL = "http://127.0.0.1:\(port)/metrics"
        // Scraped while the shards send: the first scrape after the start that has counted a delivered push (on a
        // busy host the first delivery can come later than a second in), bounded by the run's own length.
        while Date() < startAt.addingTimeInterval(1) { usleep(100_000) }
        var during = try Self.scrape(metricsURL, python: python, work: work)
        let bound = Date().addingTimeInterval(60)
        while (during.value("apnsbench_pushes_total", ["outcome": "delivered"]) ?? 0) == 0, Date() < bound {
            usleep(200_000)
            during = try Self.scrape(metricsURL, python: python, work: work)
        }
        XCTAssertEqual(during.families["apnsbench_pushes"], "counter")
        XCTAssertEqual(during.families["apnsbench_response_time_seconds"], "histogram")
        XCTAssertEqual(during.families["apnsbench_in_flight"], "gauge")
        XCTAssertEqual(during.families["apnsbench_connections"], "gauge")
        XCTAssertEqual(during.families["apnsbench_provider_token_signings"], "counter")
        XCTAssertTrue(during.samples.allSatisfy { $0.labels["run_id"] == "sharded-test" && $0.labels["shard"] == "0" })
        XCTAssertGreaterThan(during.value("apnsbench_pushes_total", ["outcome": "delivered"]) ?? 0, 0, "nothing delivered while the shards ran")

        for index in 1..<3 {
            XCTAssertEqual(try shards[index].wait(bound: 600), 0, shards[index].output.text)
            XCTAssertTrue(shards[index].output.text.contains("judged on the merged report"), shards[index].output.text)
        }
        // Shard 0 wrote its report and lingers: what it serves now is its report's totals.
        XCTAssertTrue(shards[0].output.wait(timeout: 120) { $0.contains { $0.contains("serving the final metrics") } }, shards[0].output.text)
        let after = try Self.scrape(metricsURL, python: python, work: work)
        let report0 = try RunReport.load(from: shardRoot.appendingPathComponent("shard-0/report.json").path)
        XCTAssertEqual(after.value("apnsbench_pushes_total", ["outcome": "delivered"]).map { Int($0) }, report0.pushes.delivered)
        XCTAssertEqual(after.value("apnsbench_pushes_total", ["outcome": "timed_out"]).map { Int($0) }, report0.pushes.timedOut)
        for (reason, r) in report0.pushes.rejected {
            XCTAssertEqual(after.value("apnsbench_pushes_total", ["outcome": "rejected", "reason": reason]).map { Int($0) }, r.count, reason)
        }
        for (cause, n) in report0.pushes.notSent {
            XCTAssertEqual(after.value("apnsbench_pushes_total", ["outcome": "not_sent", "reason": cause]).map { Int($0) }, n, cause)
        }
        let served = after.samples.filter { $0.name == "apnsbench_pushes_total" }.reduce(0) { $0 + Int($1.value) }
        XCTAssertEqual(served, report0.pushes.planned, "the outcomes served add up to the shard's planned pushes")
        XCTAssertEqual(after.value("apnsbench_response_time_seconds_count", ["priority": "10"]).map { Int($0) },
                       report0.latency.byPriority["10"]?.responseTime.count)
        XCTAssertEqual(after.value("apnsbench_provider_token_signings_total", [:]).map { Int($0) }, report0.engine.providerTokenSignings)
        XCTAssertEqual(after.value("apnsbench_in_flight", [:]), 0)
        let text = try String(contentsOf: work.appendingPathComponent("metrics.txt"), encoding: .utf8)
        XCTAssertNil(text.range(of: "[0-9a-fA-F]{64}", options: .regularExpression), "a device token in the metrics")
        XCTAssertEqual(try shards[0].stop(), 0, shards[0].output.text)  // SIGTERM ends the linger

        // One unsharded run of the same stream on the same simulator.
        let single = try runChild(binary, ["run", profile, "--quiet", "--out", work.appendingPathComponent("single").path] + common)
        XCTAssertEqual(single.status, 0, single.output)
        let merged = try runChild(binary, ["merge", shardRoot.path, "--out", shardRoot.appendingPathComponent("merged").path])
        XCTAssertEqual(merged.status, 0, merged.output)
        XCTAssertTrue(merged.output.contains("merged 3 shards of run sharded-test"), merged.output)

        let one = try RunReport.load(from: work.appendingPathComponent("single/report.json").path)
        let all = try RunReport.load(from: shardRoot.appendingPathComponent("merged/report.json").path)
        let parts = try (0..<3).map { try RunReport.load(from: shardRoot.appendingPathComponent("shard-\($0)/report.json").path) }
        print("sharded-test: planned \(all.pushes.planned) merged / \(one.pushes.planned) single; delivered \(all.pushes.delivered) / \(one.pushes.delivered); "
            + "rejected \(all.pushes.rejected) / \(one.pushes.rejected); not sent \(all.pushes.notSent) / \(one.pushes.notSent); "
            + "shards planned \(parts.map(\.pushes.planned))")
        XCTAssertEqual(all.pushes.planned, one.pushes.planned)
        XCTAssertEqual(all.pushes.delivered, one.pushes.delivered)
        XCTAssertEqual(all.pushes.rejected, one.pushes.rejected)
        XCTAssertEqual(all.pushes.notSent, one.pushes.notSent)
        XCTAssertEqual(all.pushes.failed, one.pushes.failed)
        XCTAssertEqual(all.pushes.timedOut, one.pushes.timedOut)
        XCTAssertEqual(all.violations(), [])
        XCTAssertEqual(all.pushes.expectedPlanned, one.pushes.expectedPlanned)
        XCTAssertGreaterThan(one.pushes.rejected["Unregistered"]?.count ?? 0, 0, "the planted dead tokens were answered 410")
        XCTAssertTrue(parts.allSatisfy { $0.pushes.planned > 0 }, "every shard sent a share")
        XCTAssertEqual(all.events, parts[0].events)
        XCTAssertNil(all.configuration.shard)
        XCTAssertEqual(all.merged?.shards, 3)
        // The merged histogram holds every shard's values, and is theirs added.
        let mergedHistogram = try EncodedHistogram.decode(try XCTUnwrap(all.latency.histograms).overall.responseTime)
        let shardCounts = try parts.map { try EncodedHistogram.decode(try XCTUnwrap($0.latency.histograms).overall.responseTime).totalCount }
        XCTAssertEqual(mergedHistogram.totalCount, shardCounts.reduce(0, +))
        XCTAssertEqual(Int(mergedHistogram.totalCount), all.pushes.delivered)
        XCTAssertEqual(all.timeline.reduce(0) { $0 + $1.delivered }, all.pushes.delivered)

        // An incomplete set is refused, naming what is missing.
        let partial = try runChild(binary, ["merge", shardRoot.appendingPathComponent("shard-0").path, shardRoot.appendingPathComponent("shard-1").path,
                                            "--out", work.appendingPathComponent("partial").path])
        XCTAssertEqual(partial.status, 6, partial.output)
        XCTAssertTrue(partial.output.contains("shard 2 is missing"), partial.output)
    }

    private static func profile(in dir: URL, bundleID: String) throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let profiles = root.appendingPathComponent("profiles").path
        let path = dir.appendingPathComponent("sharded.yaml").path
        try """
            name: sharded
            workload: leave-requests
            stream: \(profiles)/streams/leave-requests.ndjson
            recipe: \(profiles)/recipes/leave-requests.yaml
            bundle_id: \(bundleID)
            push_type: alert
            connections: 2
            slo_min_delivered: 0.5
            fail_fast: 5s
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// GET the endpoint (URLSession is not on every Linux Foundation; curl is), then the Python parser.
    private static func scrape(_ url: String, python: String, work: URL) throws -> Samples {
        let file = work.appendingPathComponent("metrics.txt").path
        let curl = try requireTool("curl", package: "curl")
        let fetched = try runChild(curl, ["-sS", "-f", "-o", file, url])
        guard fetched.status == 0 else { throw InteropError("GET \(url) failed: \(fetched.output)") }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("metrics_check.py").path
        let parsed = try runChild(python, [script, file])
        guard parsed.status == 0, let line = parsed.output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            throw InteropError("prometheus_client could not parse the metrics: \(parsed.output)")
        }
        return try JSONDecoder().decode(Samples.self, from: Data(line.utf8))
    }
}
