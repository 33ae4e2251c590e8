import Foundation

/// A ``ComparisonReport`` as Markdown for a pull-request comment or `$GITHUB_STEP_SUMMARY`: a header line
/// with the overall verdict, the two sides, the method and tolerances, warnings, then one table of
/// metric, baseline, new, change, change % and verdict, regressions first. Incomparable runs get a table
/// of their differences instead.
public enum ComparisonMarkdown {
    public static func render(_ r: ComparisonReport) -> String {
        var lines = ["### apnsbench compare: \(headline(r))", ""]
        func side(_ name: String, _ s: ComparisonReport.Side) -> String {
            "\(name): \(Format.code(s.argument)) (\(s.runs) run\(s.runs == 1 ? "" : "s"))"
        }
        lines.append(side("Baseline", r.baseline) + " · " + side("new", r.new) + " · workload " + Format.code(r.workload))
        if r.verdict == .incomparable {
            lines += ["", "Refused: these runs did not run the same thing in the same place, so their numbers say nothing about the code.", ""]
            lines.append("| field | baseline | new | between |")
            lines.append("| --- | --- | --- | --- |")
            for d in r.refusals {
                lines.append("| \(Format.code(d.field)) | \(Format.cell(d.baseline)) | \(Format.cell(d.new)) | \(Format.cell(d.between)) |")
            }
        } else {
            lines.append("")
            lines.append("Latency and throughput: \(r.method.latency). Counts: \(r.method.counts).")
            let t = r.tolerances
            lines.append("Tolerances: latency percentiles \(number(t.latencyRelative * 100))% and \(number(t.latencyFloorMillis)) ms, "
                         + "throughput \(number(t.throughputRelative * 100))% and \(number(t.throughputFloor)) pushes/s (a change must pass both).")
            if let v = variedLine(r) { lines += ["", v] }
        }
        if !r.warnings.isEmpty {
            lines.append("")
            for w in r.warnings { lines.append("> ⚠️ " + Format.cell(w)) }
        }
        if !r.rows.isEmpty {
            lines += ["", "| metric | baseline | new | change | change % | verdict | samples (baseline / new) |", "| --- | --: | --: | --: | --: | --- | --: |"]
            for row in r.rows {
                let pct: String
                if let p = row.changePercent { pct = signed(p, places: 1) + "%" } else if (row.change ?? 0) != 0 { pct = "new" } else { pct = "" }
                let change = row.change.map { $0 == 0 ? "0" : signed($0, places: row.kind == .count ? nil : places(row)) } ?? ""
                lines.append("| \(Format.cell(row.metric)) | \(value(row.baseline, row)) | \(value(row.new, row)) | \(change) | \(pct) | \(verdict(row, r)) "
                    + "| \(samples(row)) |")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The short form for a pull-request comment (`--summary`): the verdict line, the two sides, and only the
    /// rows that decide it (regressions; improvements too under `--fail-on-improvement`), or the refusals of
    /// incomparable runs. Rows left out are counted in the verdict line.
    public static func renderSummary(_ r: ComparisonReport) -> String {
        var lines = ["### apnsbench compare: \(headline(r))", ""]
        lines.append("Baseline \(Format.code(r.baseline.argument)) (\(r.baseline.runs)) · new \(Format.code(r.new.argument)) (\(r.new.runs)) "
            + "· workload \(Format.code(r.workload))")
        if r.verdict == .incomparable {
            lines += ["", "| field | baseline | new |", "| --- | --- | --- |"]
            for d in r.refusals { lines.append("| \(Format.code(d.field)) | \(Format.cell(d.baseline)) | \(Format.cell(d.new)) |") }
            return lines.joined(separator: "\n") + "\n"
        }
        let shown = r.rows.filter { $0.verdict == .regression || ($0.verdict == .improvement && r.failOnImprovement) }
        if let v = variedLine(r) { lines += ["", v] }
        guard !shown.isEmpty else { return lines.joined(separator: "\n") + "\n" }
        lines += ["", "| metric | baseline | new | change % | verdict |", "| --- | --: | --: | --: | --- |"]
        for row in shown {
            let pct = row.changePercent.map { signed($0, places: 1) + "%" } ?? ((row.change ?? 0) != 0 ? "new" : "")
            let n = samples(row)
            lines.append("| \(Format.cell(row.metric)) | \(value(row.baseline, row)) | \(value(row.new, row)) | \(pct) "
                + "| \(verdict(row, r))\(n.isEmpty ? "" : " (samples \(n))") |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `❌ regression — 2 regressions, 1 improvement, 39 unchanged or within tolerance or noise`.
    public static func headline(_ r: ComparisonReport) -> String {
        let regressions = r.regressions.count, improvements = r.improvements.count
        let rest = r.rows.count - regressions - improvements
        let counts = "\(regressions) regression\(regressions == 1 ? "" : "s"), \(improvements) improvement\(improvements == 1 ? "" : "s"), \(rest) "
            + "unchanged or within tolerance or noise"
        switch r.verdict {
        case .incomparable: return "⛔ incomparable — the runs differ in \(r.refusals.count) way\(r.refusals.count == 1 ? "" : "s")"
        case .regression: return "❌ regression — " + counts
        case .improvementsOnly:
            return (r.failOnImprovement ? "⚠️ improvements only (failing: --fail-on-improvement) — " : "✅ no regression, improvements only — ") + counts
        case .noRegression: return "✅ no regression — " + counts
        }
    }

    /// `12044 / 11980` for a latency row; empty for the others.
    static func samples(_ row: ComparisonReport.Row) -> String {
        guard let a = row.baselineSamples, let b = row.newSamples else { return "" }
        return "\(a) / \(b)"
    }

    /// `Varied on purpose (--differ-on): configuration.payload.priority 10 → 5.`, or nil.
    static func variedLine(_ r: ComparisonReport) -> String? {
        guard let varied = r.varied, !varied.isEmpty else { return nil }
        return "Varied on purpose (--differ-on): " + varied.map { "\(Format.code($0.field)) \(Format.cell($0.baseline)) → \(Format.cell($0.new))" }
            .joined(separator: ", ") + "."
    }

    static func verdict(_ row: ComparisonReport.Row, _ r: ComparisonReport) -> String {
        let word: String
        switch row.verdict {
        case .regression: word = "❌ regression"
        case .improvement: word = r.failOnImprovement ? "⚠️ improvement" : "✅ improvement"
        case .withinNoise: word = "≈ within noise"
        case .withinTolerance: word = "within tolerance"
        case .tooFewSamples: word = "too few samples"
        case .notJudged: word = "not judged"
        case .unchanged: word = "unchanged"
        }
        return row.note.map { word + " (" + Format.cell($0) + ")" } ?? word
    }

    static func places(_ row: ComparisonReport.Row) -> Int {
        switch row.kind {
        case .count: return 0
        case .throughput: return 1
        case .latency: return 2
        }
    }

    static func value(_ v: Double?, _ row: ComparisonReport.Row) -> String {
        guard let v else { return "–" }
        let text = row.kind == .count && v != v.rounded() ? number(v) : Format.fixed(v, places: places(row))
        return row.kind == .latency ? text + " ms" : text
    }

    /// A number without trailing zeros: `10`, `2.5`, `0.125`.
    public static func number(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
        var s = String(format: "%.3f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// `+1.23`, `-0.50`; with `places` nil, as ``number(_:)`` with a sign.
    public static func signed(_ v: Double, places: Int? = nil) -> String {
        var text = places.map { Format.fixed(v, places: $0) } ?? number(v)
        // A change that rounds to zero is shown without a sign (`0.0`, not `-0.0`).
        if text.hasPrefix("-"), !text.contains(where: { "123456789".contains($0) }) { text.removeFirst() }
        return v > 0 && text.contains(where: { "123456789".contains($0) }) ? "+" + text : text
    }
}
