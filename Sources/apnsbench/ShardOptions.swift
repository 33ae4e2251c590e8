import APNsCore
import ArgumentParser
import Foundation
import Harness
import RunOptions

/// `run`'s options for a run split over processes or machines, and its live metrics.
struct ShardOptions: ParsableArguments {
    @Option(name: .setting(.shard), help: .setting(.shard))
    var shard: String?

    @Option(name: .long, help: ArgumentHelp(
        "Be one of N shards, with I read from JOB_COMPLETION_INDEX (as a Kubernetes Indexed Job sets it).", valueName: "N"))
    var shards: Int?

    @Option(name: .long, help: ArgumentHelp(
        "The run's id, the same for every shard of one run (merge requires it); letters, digits, '.', '_', '-'. Default: APNSBENCH_RUN_ID if set, "
            + "else a fresh one.",
        valueName: "ID"))
    var runId: String?

    @Option(name: .long, help: ArgumentHelp(
        "Send nothing before this wall-clock time (ISO-8601, e.g. 2026-11-23T10:00:00Z): a barrier so that shards started apart start together.",
        valueName: "TIME"))
    var startAt: String?

    @Option(name: .long, help: ArgumentHelp(
        "Serve live OpenMetrics at http://ADDR:PORT/metrics while the run lasts (pushes by outcome and reason, response time by priority, in flight, "
            + "connections, token signings; labels run_id and shard). 127.0.0.1:0 picks a free port; the start line names it.",
        valueName: "ADDR:PORT"))
    var metricsListen: String?

    @Option(name: .long, help: ArgumentHelp(
        "With --metrics-listen: after the report is written, keep serving its final totals this long (0 to 3600s, default 0), so a last scrape sees them.",
        valueName: "DURATION"))
    var metricsLinger: Duration = .zero

    /// `--metrics-linger` in seconds.
    func lingerSeconds() -> Double { metricsLinger.secondsValue }

    /// The process's environment, where `--shards` reads JOB_COMPLETION_INDEX and the run id APNSBENCH_RUN_ID;
    /// not a command-line option (it is left out of `CodingKeys`).
    var environment: [String: String] = ProcessInfo.processInfo.environment

    private enum CodingKeys: String, CodingKey { case shard, shards, runId, startAt, metricsListen, metricsLinger }

    func validate() throws {
        _ = try resolvedShard()
        _ = try resolvedRunID()
        _ = try startTime()
        if let listen = metricsListen, MetricsServer.parse(listen) == nil {
            throw ValidationError("--metrics-listen '\(listen)' must be HOST:PORT, like 0.0.0.0:9464 or 127.0.0.1:0")
        }
        guard metricsLinger <= .seconds(3600) else { throw ValidationError("--metrics-linger \(DurationText.text(metricsLinger)) must be at most 3600s") }
        if metricsLinger > .zero, metricsListen == nil { throw ValidationError("--metrics-linger goes with --metrics-listen") }
    }

    /// `--shard I/N`, or `--shards N` with I from JOB_COMPLETION_INDEX; nil for an unsharded run. Ranges are
    /// the configuration's to check.
    func resolvedShard() throws -> RunConfig.Shard? {
        if shard != nil, shards != nil { throw ValidationError("choose one of --shard I/N and --shards N") }
        if let shard {
            let parts = shard.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
                throw ValidationError("--shard '\(shard)' must be I/N, like 0/3 (I counts from 0)")
            }
            return RunConfig.Shard(index: i, count: n)
        }
        guard let shards else { return nil }
        guard let text = environment["JOB_COMPLETION_INDEX"], !text.isEmpty else {
            throw ValidationError("--shards \(shards) reads this shard's index from JOB_COMPLETION_INDEX, which is not set (a Kubernetes Indexed Job sets it); "
                + "give --shard I/\(shards) instead")
        }
        guard let i = Int(text) else {
            throw ValidationError("JOB_COMPLETION_INDEX '\(text)' (for --shards \(shards)) is not a whole number")
        }
        return RunConfig.Shard(index: i, count: shards)
    }

    /// --run-id, or APNSBENCH_RUN_ID; nil: the run makes one.
    func resolvedRunID() throws -> String? {
        let fromEnvironment = runId == nil
        guard let id = runId ?? environment["APNSBENCH_RUN_ID"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        if let problem = RunIdentity.check(id) {
            throw ValidationError("\(fromEnvironment ? "APNSBENCH_RUN_ID" : "--run-id") \(problem)")
        }
        return id
    }

    func startTime() throws -> Date? {
        guard let startAt else { return nil }
        guard let date = StartBarrier.parse(startAt) else {
            throw ValidationError("--start-at '\(startAt)' must be an ISO-8601 time like 2026-11-23T10:00:00Z")
        }
        return date
    }
}
