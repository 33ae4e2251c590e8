import Foundation

/// `latency.hlog`: the report's histograms as an HdrHistogram interval log (log format 1.3), so the
/// HdrHistogram tool chain (HistogramLogProcessor, the plotters, the Python and Go readers) reads them.
///
/// One tag per histogram. Timestamps are seconds relative to `#[BaseTime:`, which is the run's start;
/// values are microseconds, and `Interval_Max` is in milliseconds (the max in µs / 1 000).
/// - `response.interval`: one line per interval of the timeline with deliveries (1 s unless the run set
///   `report_interval`), the response times of the pushes delivered in it.
/// - whole-run lines (start 0, length the run's duration), one per histogram in the report's
///   `latency.histograms`: `response` and `service` (all delivered pushes), then
///   `response.priority10`, `response.pushType.alert`, `response.outcome.rejected`, … and the same for `service`.
/// - with a device model, `timeToDevice.priority10`, `timeToDevice.pushType.liveactivity`, …: the time to
///   device of the pushes shown, whole-run, its values in **milliseconds** of recorded time (and its
///   `Interval_Max` too), as the report's `device` section holds them.
public enum LatencyLog {
    /// The file's name beside `report.json`.
    public static let fileName = "latency.hlog"
    /// The tag of the per-second lines.
    public static let intervalTag = "response.interval"

    /// The log's text, built from the report alone.
    public static func text(_ report: RunReport) -> String {
        let start = (try? Date(report.startedAt, strategy: .iso8601))?.timeIntervalSince1970 ?? 0
        let interval = Int(report.configuration.timelineInterval.millis / 1000)
        var out = """
        #[Histogram log format version 1.3]
        #[apnsbench \(report.generator.version): latency in microseconds, Interval_Max in milliseconds; tags: \(intervalTag) per \(interval) s interval, the \
        rest whole-run\(report.device == nil ? "" : "; timeToDevice.* values in milliseconds of recorded time")]
        #[StartTime: \(fixed(start)) (seconds since epoch), \(report.startedAt)]
        #[BaseTime: \(fixed(start)) (seconds since epoch)]
        "StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"

        """
        func line(_ tag: String, _ from: Double, _ length: Double, _ encoded: String, unitsPerMillisecond: Double = 1_000) {
            let maxMillis = Double((try? EncodedHistogram.maxValue(encoded)) ?? 0) / unitsPerMillisecond
            out += "Tag=\(tag),\(fixed(from)),\(fixed(length)),\(fixed(maxMillis)),\(encoded)\n"
        }
        let whole = Swift.max(report.durationSeconds, Double(report.timeline.count * interval))
        if let h = report.latency.histograms {
            var lines: [(String, RunReport.EncodedPair)] = [("", h.overall)]
            lines += h.byPriority.sorted { $0.key < $1.key }.map { (".priority\($0.key)", $0.value) }
            lines += h.byPushType.sorted { $0.key < $1.key }.map { (".pushType.\($0.key)", $0.value) }
            lines += h.byOutcome.sorted { $0.key < $1.key }.map { (".outcome.\($0.key)", $0.value) }
            for (suffix, pair) in lines {
                line("response" + tagSafe(suffix), 0, whole, pair.responseTime)
                line("service" + tagSafe(suffix), 0, whole, pair.serviceTime)
            }
        }
        if let d = report.device?.timeToDevice.histograms {
            let lines = d.byPriority.sorted { $0.key < $1.key }.map { (".priority\($0.key)", $0.value) }
                + d.byPushType.sorted { $0.key < $1.key }.map { (".pushType.\($0.key)", $0.value) }
            for (suffix, encoded) in lines { line("timeToDevice" + tagSafe(suffix), 0, whole, encoded, unitsPerMillisecond: 1) }
        }
        for entry in report.timeline {
            if let encoded = entry.responseTime { line(intervalTag, Double(entry.second), Double(interval), encoded) }
        }
        return out
    }

    /// Seconds (or milliseconds) with three decimals, never in exponent form (the readers' pattern is `[\d.]*`).
    static func fixed(_ v: Double) -> String {
        String(format: "%.3f", v.isFinite ? Swift.max(0, v) : 0)
    }

    /// A tag holds no comma or white space (the log's separators).
    static func tagSafe(_ s: String) -> String {
        String(s.map { $0 == "," || $0.isWhitespace ? "_" : $0 })
    }
}
