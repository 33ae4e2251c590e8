import APNsCore
import ArgumentParser
import Foundation
import Reporting

/// `apnsbench compare BASELINE NEW`: the CI regression gate. Parses, loads, and hands both sides to
/// `Reporting.Comparison`; the verdict becomes the exit code.
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare a run (or repeated runs) with a baseline; exit 2 on a regression.",
        discussion: """
            BASELINE and NEW are each a report.json or a folder of repeated runs. \(ReportFiles.help) Every report \
            is verified as it is read: one whose counts do not add up is refused (exit 1), each violation named \
            with the file, the field, what was expected and what was found. Runs must be comparable: the same schema, workload, recording \
            (events.streamSHA256), \
            configuration (connections, streams, workers, schedule, priority, coalescing, retry, simulator mode, \
            target host) and environment (libcurl, nghttp2, cores; --allow-env-mismatch makes these warnings); \
            otherwise nothing is compared and each difference is named (exit 5). --differ-on KEY,... lets the sides differ \
            on purpose in those configuration keys (a what-if: another APNs model, priority, connections); the output \
            names what was varied.

            Counts are compared exactly, each with its polarity: fewer delivered, more rejections (a new reason \
            above all), more not sent, failed or timed out, more provider-token signings, connections or Live \
            Activity budget overruns is a regression; a change in planned pushes is one too. Latency (p50, p90, \
            p99, p99.9 of response and service time, overall and per priority) and throughput are flagged only \
            past both the relative and the absolute tolerance; with 3 or more runs per side also only when the \
            bootstrap 95% confidence interval of the median difference excludes 0 ("within noise" otherwise). \
            With one run per side the tolerances decide alone, and the output says so. Each latency row shows the \
            samples it rests on; a percentile with fewer than 10 samples beyond it in a run (p99.9 below 10,000 \
            pushes) is "too few samples", never a regression. Counts that depend on timing are judged against \
            their noise: a change within one side's own spread, delivered pushes moved to after_end, and the \
            dead-token split (not sent dead_token against rejected Unregistered, when their sum holds).

            --exact-counts compares one report with one, the pushes and events sections field by field with no \
            tolerance (a change that keeps behaviour leaves them identical): each differing field is named, exit 2 \
            when any differs. --dead-token-split compares notSent.dead_token + rejected.Unregistered as one count \
            (which of the two a push to a dead token lands in depends on timing when many streams are in flight).

            Examples:
              apnsbench compare reports/baselines/ci reports/ci-runs
              apnsbench compare --exact-counts before/report.json after/report.json
              apnsbench compare base/report.json new/report.json --format junit --out compare.xml
              apnsbench compare base new --format md --summary >> "$GITHUB_STEP_SUMMARY"

            \(ExitCodes.compareHelp)
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case md, json, junit, html
    }

    @Argument(help: ArgumentHelp("The baseline: a report.json or a folder of runs.", valueName: "BASELINE"))
    var baseline: String

    @Argument(help: ArgumentHelp("The run(s) to judge: a report.json or a folder of runs.", valueName: "NEW"))
    var new: String

    @Option(name: .long, help: ArgumentHelp("Largest change of a latency percentile not flagged, e.g. 10% (or 10).", valueName: "PERCENT"))
    var maxP99Regression: String = "10%"

    @Option(name: .long, help: ArgumentHelp("Largest throughput change not flagged, e.g. 5% (or 5).", valueName: "PERCENT"))
    var maxThroughputDrop: String = "5%"

    @Option(name: .long, help: ArgumentHelp("Latency changes of at most this much are never flagged (default 1ms).", valueName: "DURATION"))
    var absFloor: Duration?

    /// The flag's former name, a number of milliseconds; still read, with a notice (``deprecation``).
    @Option(name: .customLong("abs-floor-ms"), help: .hidden)
    var absFloorMs: Double?

    /// The latency floor in milliseconds: `--abs-floor`, or its former name `--abs-floor-ms`, or 1 ms.
    var latencyFloorMillis: Double {
        let floor = absFloor ?? .milliseconds(1)
        return absFloorMs ?? Double(floor.components.seconds) * 1000 + Double(floor.components.attoseconds) / 1e15
    }

    /// The line for the flag given by its former name, which named its unit: `--abs-floor-ms is deprecated: write --abs-floor 30ms`.
    var deprecation: String? {
        absFloorMs.map { "--abs-floor-ms is deprecated: write --abs-floor \($0 == $0.rounded() ? String(Int64($0)) : String($0))ms" }
    }

    @Option(name: .long, help: ArgumentHelp("Throughput changes of at most this many pushes a second are never flagged.", valueName: "PUSHES"))
    var absFloorPps: Double = 5

    @Option(name: .long, help: ArgumentHelp(
        "Judge latency and throughput only with at least this many runs a side; with fewer they are shown, not judged (the counts still are).",
        valueName: "N"))
    var timingMinRuns: Int = 1

    @Flag(name: .long, help: "Different libcurl, nghttp2 or core count: warn instead of refusing.")
    var allowEnvMismatch = false

    @Option(name: .long, help: ArgumentHelp(
        "A what-if: the sides may differ on purpose in these configuration keys (comma-separated: model, priority, coalescing, connections, streams, workers, "
            + "schedule, retry, expiration, token-refresh, live-activity-budget, or a report.json path such as configuration.payload.collapseID); "
            + "every other difference still refuses, and the output names what was varied.",
        valueName: "KEY,..."))
    var differOn: String?

    @Flag(name: .long, help: "Exit 4 when there are improvements and no regression (so the baseline gets updated).")
    var failOnImprovement = false

    @Flag(name: .long, help: "Compare the pushes and events counts of one report with one's, exactly; exit 2 when any differs.")
    var exactCounts = false

    @Flag(name: .long, help: "With --exact-counts: compare dead-token pushes (notSent.dead_token + rejected.Unregistered) as one count.")
    var deadTokenSplit = false

    @Option(name: .long, help: ArgumentHelp(
        "md: a Markdown table (for a PR comment or $GITHUB_STEP_SUMMARY); json: the same table as JSON; junit: JUnit XML; html: "
            + "a self-contained page with both sides' percentile spectra overlaid."))
    var format: Format = .md

    @Flag(name: .long, help: ArgumentHelp(
        "With --format md: the verdict and the rows that decide it only (regressions; improvements under --fail-on-improvement), "
            + "short enough for a pull-request comment."))
    var summary = false

    @Option(name: .long, help: ArgumentHelp("Write here instead of standard output.", valueName: "FILE"))
    var out: String?

    /// `10%` or `10` → 0.10.
    static func percent(_ text: String, flag: String) throws -> Double {
        let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
        guard let v = Double(digits.trimmingCharacters(in: .whitespaces)), v >= 0, v.isFinite else {
            throw ValidationError("\(flag) must be a percentage such as 10%, found '\(text)'")
        }
        return v / 100
    }

    func validate() throws {
        _ = try Self.percent(maxP99Regression, flag: "--max-p99-regression")
        _ = try Self.percent(maxThroughputDrop, flag: "--max-throughput-drop")
        if let ms = absFloorMs, !(ms >= 0 && ms.isFinite) { throw ValidationError("--abs-floor-ms must be 0 or more, found \(ms)") }
        if absFloorMs != nil, absFloor != nil { throw ValidationError("choose one of --abs-floor and its former name --abs-floor-ms") }
        guard absFloorPps >= 0, absFloorPps.isFinite else { throw ValidationError("--abs-floor-pps must be 0 or more, found \(absFloorPps)") }
        if deadTokenSplit, !exactCounts { throw ValidationError("--dead-token-split goes with --exact-counts") }
        if let differOn {
            do { _ = try DifferOn.fields(differOn) } catch { throw ValidationError("\(error)") }
            if exactCounts { throw ValidationError("--differ-on goes with the metric comparison, not --exact-counts") }
        }
        guard timingMinRuns >= 1 else { throw ValidationError("--timing-min-runs must be 1 or more, found \(timingMinRuns)") }
        if summary, format != .md { throw ValidationError("--summary is a short Markdown form; --format \(format.rawValue) has no short form") }
        if summary, exactCounts { throw ValidationError("--summary goes with the metric comparison, not --exact-counts") }
        if exactCounts, format != .md { throw ValidationError("--exact-counts writes text; --format \(format.rawValue) is for the metric comparison") }
    }

    func run() throws {
        if let line = deprecation { FileHandle.standardError.write(Data("apnsbench: \(line)\n".utf8)) }
        try checkOutputs()
        let a = try ReportSet.load(baseline)
        let b = try ReportSet.load(new)
        if exactCounts { return try compareCounts(a, b) }
        var options = Comparison.Options()
        options.tolerances = .init(latencyRelative: try Self.percent(maxP99Regression, flag: "--max-p99-regression"),
                                   latencyFloorMillis: latencyFloorMillis,
                                   throughputRelative: try Self.percent(maxThroughputDrop, flag: "--max-throughput-drop"),
                                   throughputFloor: absFloorPps)
        options.allowEnvironmentMismatch = allowEnvMismatch
        options.failOnImprovement = failOnImprovement
        options.differOn = try differOn.map(DifferOn.fields) ?? []
        // A path is checked against the fields report.json's configuration has (a misspelt one would vary nothing).
        do { try DifferOn.check(options.differOn, against: (a + b).map(\.report.configuration)) } catch let e as DifferOnFieldError {
            throw ValidationError(e.description)
        }
        options.timingMinimumRuns = timingMinRuns
        let result = Comparison.compare(baseline: .init(argument: baseline, reports: a.map(\.path)), a,
                                        new: .init(argument: new, reports: b.map(\.path)), b, options: options)
        let bytes: Data
        switch format {
        case .md: bytes = Data((summary ? ComparisonMarkdown.renderSummary(result) : ComparisonMarkdown.render(result)).utf8)
        case .json: bytes = try result.encoded() + Data("\n".utf8)
        case .junit: bytes = Data(ComparisonJUnit.render(result).utf8)
        case .html: bytes = Data(ComparisonHtml.render(result, baseline: a.map(\.report), new: b.map(\.report)).utf8)
        }
        if let out {
            do { try bytes.write(to: URL(fileURLWithPath: out), options: .atomic) } catch {
                throw CommandError("cannot write \(out): \(error.localizedDescription)")
            }
            FileHandle.standardError.write(Data("apnsbench compare: \(ComparisonMarkdown.headline(result)) (written to \(out))\n".utf8))
        } else {
            FileHandle.standardOutput.write(bytes)
        }
        switch result.verdict {
        case .noRegression: return
        case .regression: throw ExitCodes.regression
        case .incomparable: throw ExitCodes.incomparable
        case .improvementsOnly: if failOnImprovement { throw ExitCodes.improvementsOnly }
        }
    }

    /// `--exact-counts`: one report a side, every differing count named.
    private func compareCounts(_ a: [LoadedReport], _ b: [LoadedReport]) throws {
        for (argument, side) in [(baseline, a), (new, b)] where side.count != 1 {
            throw CommandError("--exact-counts compares one report with one; \(argument) holds \(side.count)")
        }
        let differences = try ExactCounts.differences(baseline: a[0].report, new: b[0].report, deadTokenSplit: deadTokenSplit)
        let sections = ExactCounts.sections.joined(separator: ", ") + (deadTokenSplit ? " (dead-token pushes summed)" : "")
        var text = "exact counts of \(sections): \(a[0].path) vs \(b[0].path)\n"
        text += differences.isEmpty ? "identical\n" : differences.map { "differs: \($0)\n" }.joined()
        if let out {
            do { try Data(text.utf8).write(to: URL(fileURLWithPath: out), options: .atomic) } catch {
                throw CommandError("cannot write \(out): \(error.localizedDescription)")
            }
        } else {
            FileHandle.standardOutput.write(Data(text.utf8))
        }
        if !differences.isEmpty { throw ExitCodes.regression }
    }
}

extension CompareCommand: WritingCommand {
    static let writes: [Writes<Self>] = [.init("--out", .file) { $0.out }]
    static let reads = ["<BASELINE>", "<NEW>"]

    /// Every report.json BASELINE and NEW stand for.
    func inputFiles() throws -> [OutputPath.Input] {
        try ReportFiles.expand(baseline).map { OutputPath.Input("the baseline report", $0) }
            + ReportFiles.expand(new).map { OutputPath.Input("the new report", $0) }
    }
}
