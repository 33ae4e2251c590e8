import APNsCore

/// The plan's counts as text: one totals line, then (unless brief) a table by event kind and the bad lines
/// by cause with their first line numbers.
public enum PlanSummary {
    /// Line numbers shown per bad-line cause.
    public static let linesShown = 5

    public static func text(_ tally: PlanTally, profile: String, brief: Bool) -> String {
        var out = "plan \(profile): \(tally.events.read) events read, \(tally.planned) pushes planned: \(tally.toSend) to send, "
            + "\(tally.notSentTotal) not sent\(causes(tally.notSent))\n"
        if brief { return out + stopLine(tally) + balanceLine(tally) }
        let kinds = Set(tally.events.byKind.keys).union(tally.byKind.keys).sorted()
        var rows = [["kind", "events", "planned", "to send", "not sent"]]
        for kind in kinds {
            let c = tally.byKind[kind] ?? PlanTally.KindCounts()
            let notSent = c.notSent.values.reduce(0, +)
            rows.append([kind, String(tally.events.byKind[kind] ?? 0), String(c.planned), String(c.toSend),
                         notSent == 0 ? "0" : "\(notSent)\(causes(c.notSent))"])
        }
        out += table(rows)
        out += ruleTable(tally)
        let events = tally.events
        if events.noPushCondition > 0 {
            let kinds = events.noPushConditionByKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            out += "no push (condition): \(events.noPushCondition) events (\(kinds.joined(separator: ", "))): no push rule's 'when' held\n"
        }
        if events.invalidTotal > 0 {
            out += "bad lines: \(events.invalidTotal)\n"
            let unknown = StreamLineError.Cause.unknownKind("").key
            for cause in events.invalid.keys.sorted(by: { ($0 == unknown ? 0 : 1, $0) < ($1 == unknown ? 0 : 1, $1) }) {
                let count = events.invalid[cause] ?? 0
                let lines = events.badLineSamples.filter { $0.cause == cause }.prefix(linesShown).map { String($0.line) }
                let label = cause == unknown ? "matched no rule (\(cause))" : cause
                out += "  \(label): \(count)\(lines.isEmpty ? "" : ", lines \(lines.joined(separator: ", "))\(count > lines.count ? ", …" : "")")\n"
            }
        }
        return out + stopLine(tally) + balanceLine(tally)
    }

    /// The pushes of each named push rule, by event kind; empty when no rule is named.
    private static func ruleTable(_ tally: PlanTally) -> String {
        guard !tally.byRule.isEmpty else { return "" }
        var rows = [["kind / rule", "planned", "to send", "not sent"]]
        for key in tally.byRule.keys.sorted(by: { ($0.kind, $0.rule) < ($1.kind, $1.rule) }) {
            let c = tally.byRule[key]!
            let notSent = c.notSent.values.reduce(0, +)
            rows.append(["\(key.kind) / \(key.rule)", String(c.planned), String(c.toSend), notSent == 0 ? "0" : "\(notSent)\(causes(c.notSent))"])
        }
        return "by push rule:\n" + table(rows)
    }

    private static func stopLine(_ tally: PlanTally) -> String {
        tally.stopError.map { "stopped at a bad stream line (bad_lines: stop): \($0)\n" } ?? ""
    }

    private static func balanceLine(_ tally: PlanTally) -> String {
        tally.balanced
            ? "totals add up: every planned push is to send or not sent, \(tally.events.expectedPushes) as the events read plan\n"
            : "totals DO NOT add up: planned \(tally.planned), to send \(tally.toSend) + not sent \(tally.notSentTotal), "
                + "events read plan \(tally.events.expectedPushes)\n"
    }

    /// ` (a 3, b 1)`, by cause; empty when there is none.
    private static func causes(_ counts: [String: Int]) -> String {
        counts.isEmpty ? "" : " (" + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
    }

    /// Left-aligned first column, right-aligned numbers.
    private static func table(_ rows: [[String]]) -> String {
        let widths = (0..<rows[0].count).map { col in rows.map { $0[col].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { col, cell in
                let pad = String(repeating: " ", count: widths[col] - cell.count)
                return col == 0 || col == row.count - 1 ? cell + (col == 0 ? pad : "") : pad + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
