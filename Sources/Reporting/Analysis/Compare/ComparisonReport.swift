/// The result of `apnsbench compare BASELINE NEW`: the verdict, how it was reached, and one row per metric.
/// It is the JSON twin of the Markdown table (``ComparisonMarkdown``) and the source of the JUnit XML
/// (``ComparisonJUnit``); the CLI maps ``verdict`` to an exit code.
///
/// Rows are sorted regressions first, then improvements, then changes within noise, within tolerance,
/// and unchanged; within each group counts come before throughput and latency, in a fixed order.
public struct ComparisonReport: Codable, Sendable, Equatable {
    /// The overall verdict.
    public enum Verdict: String, Codable, Sendable {
        /// Nothing got worse (improvements, if any, do not fail unless asked to).
        case noRegression = "no-regression"
        /// At least one row is a regression.
        case regression
        /// Improvements and no regression.
        case improvementsOnly = "improvements-only"
        /// The runs differ in what was run or where (``refusals``); nothing was compared.
        case incomparable
    }

    /// Which runs one side is made of.
    public struct Side: Codable, Sendable, Equatable {
        /// What the user named: a report.json or a folder.
        public var argument: String
        /// The report files, in the order read.
        public var reports: [String]
        public var runs: Int { reports.count }

        public init(argument: String, reports: [String]) {
            self.argument = argument
            self.reports = reports
        }
    }

    /// How big a change must be before it is flagged: both the relative and the absolute bound.
    public struct Tolerances: Codable, Sendable, Equatable {
        /// Latency percentiles (p50 … p99.9): the largest relative change, 0.10 = 10 % (`--max-p99-regression`).
        public var latencyRelative: Double
        /// Latency percentiles: changes of at most this many milliseconds are never flagged (`--abs-floor-ms`).
        public var latencyFloorMillis: Double
        /// Throughput: the largest relative change, 0.05 = 5 % (`--max-throughput-drop`).
        public var throughputRelative: Double
        /// Throughput: changes of at most this many pushes a second are never flagged (`--abs-floor-pps`).
        public var throughputFloor: Double
        /// The confidence of the bootstrap interval, when both sides have at least 3 runs.
        public var confidence: Double

        public init(latencyRelative: Double = 0.10, latencyFloorMillis: Double = 1, throughputRelative: Double = 0.05,
                    throughputFloor: Double = 5, confidence: Double = 0.95) {
            self.latencyRelative = latencyRelative
            self.latencyFloorMillis = latencyFloorMillis
            self.throughputRelative = throughputRelative
            self.throughputFloor = throughputFloor
            self.confidence = confidence
        }
    }

    /// The words of the output that say how the verdicts were reached.
    public struct Method: Codable, Sendable, Equatable {
        /// How latency and throughput were judged, e.g. `single run per side: tolerances only`.
        public var latency: String
        /// How counts were compared, e.g. `exact`.
        public var counts: String

        public init(latency: String, counts: String) {
            self.latency = latency
            self.counts = counts
        }
    }

    /// One metric compared.
    public struct Row: Codable, Sendable, Equatable {
        public enum Kind: String, Codable, Sendable {
            case count, throughput, latency
        }

        public enum Verdict: String, Codable, Sendable {
            case regression, improvement
            /// Past both tolerances, but the confidence interval includes 0.
            case withinNoise = "within-noise"
            /// Changed, but not past both tolerances.
            case withinTolerance = "within-tolerance"
            case unchanged
            /// A percentile with fewer than ``LatencyVerdict/minimumSamplesBeyond`` samples beyond it in some run:
            /// its change says nothing, whichever way it goes.
            case tooFewSamples = "too-few-samples"
            /// Timing of reports written by `apnsbench simulate --report` with fewer than 3 runs a side: the
            /// server's time and the sender's rate on a shared machine, shown and not judged.
            case notJudged = "not-judged"

            /// Sort rank: regressions first.
            var rank: Int {
                switch self {
                case .regression: return 0
                case .improvement: return 1
                case .withinNoise: return 2
                case .tooFewSamples: return 3
                case .withinTolerance: return 4
                case .notJudged: return 5
                case .unchanged: return 6
                }
            }
        }

        /// What is compared: `delivered`, `rejected ServiceUnavailable`, `response time p99 (priority 10)`.
        public var metric: String
        public var kind: Kind
        /// `pushes`, `signings`, `connections`, `ms`, `pushes/s`.
        public var unit: String
        /// The side's value: the run's, or the median of its runs. Nil when the metric is absent on that side.
        public var baseline: Double?
        public var new: Double?
        /// `new − baseline`.
        public var change: Double?
        /// `change / baseline × 100`; nil when the baseline is 0.
        public var changePercent: Double?
        public var verdict: Verdict
        /// Why: `new reason`, `95% CI of the median difference [+12.1, +40.3] ms`, `below the 1 ms floor`.
        public var note: String?
        /// Every run's value, in the order the side's reports were read.
        public var baselineRuns: [Double]
        public var newRuns: [Double]
        /// The bootstrap interval of `new − baseline`, when one was computed.
        public var interval: Statistics.Interval?
        /// Latency rows: the samples (delivered pushes) each side's percentiles rest on, summed over its runs.
        public var baselineSamples: Int?
        public var newSamples: Int?

        public init(metric: String, kind: Kind, unit: String, baseline: Double?, new: Double?, verdict: Verdict, note: String? = nil,
                    baselineRuns: [Double], newRuns: [Double], interval: Statistics.Interval? = nil) {
            self.metric = metric
            self.kind = kind
            self.unit = unit
            self.baseline = baseline
            self.new = new
            let change = (new ?? 0) - (baseline ?? 0)
            self.change = baseline == nil && new == nil ? nil : change
            if let baseline, baseline != 0 { changePercent = change / baseline * 100 } else { changePercent = nil }
            self.verdict = verdict
            self.note = note
            self.baselineRuns = baselineRuns
            self.newRuns = newRuns
            self.interval = interval
        }
    }

    /// The report format's version; a change of a field's meaning bumps it.
    public static let currentSchemaVersion = 1

    public var schemaVersion = ComparisonReport.currentSchemaVersion
    public var verdict: Verdict
    public var baseline: Side
    public var new: Side
    /// The workload both sides ran (the baseline's, when they differ).
    public var workload: String
    public var tolerances: Tolerances
    public var method: Method
    /// Whether improvements fail the comparison (`--fail-on-improvement`: exit 4, JUnit failures).
    public var failOnImprovement: Bool
    /// What made the runs incomparable; empty when they were compared.
    public var refusals: [Difference]
    /// Configuration differences between the sides let through by `--differ-on`: what the comparison varied
    /// on purpose. Absent when nothing was.
    public var varied: [Difference]?
    /// Environment differences let through by `--allow-env-mismatch`, and other things worth knowing.
    public var warnings: [String]
    public var rows: [Row]

    public init(verdict: Verdict, baseline: Side, new: Side, workload: String, tolerances: Tolerances, method: Method,
                failOnImprovement: Bool, refusals: [Difference], warnings: [String], rows: [Row]) {
        self.verdict = verdict
        self.baseline = baseline
        self.new = new
        self.workload = workload
        self.tolerances = tolerances
        self.method = method
        self.failOnImprovement = failOnImprovement
        self.refusals = refusals
        self.warnings = warnings
        self.rows = rows
    }

    public var regressions: [Row] { rows.filter { $0.verdict == .regression } }
    public var improvements: [Row] { rows.filter { $0.verdict == .improvement } }

    /// Whether the comparison fails: a regression, incomparable runs, or improvements under `--fail-on-improvement`.
    public var fails: Bool {
        switch verdict {
        case .noRegression: return false
        case .regression, .incomparable: return true
        case .improvementsOnly: return failOnImprovement
        }
    }
}
