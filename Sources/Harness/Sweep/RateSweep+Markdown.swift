import Foundation
import Reporting

extension RateSweep {
    static func line(_ s: Step) -> String {
        let r = s.result
        return String(format: "step %02d  schedule %@  offered %7.0f/s  sent %7.0f/s  p99 %8.1f ms  delivered %6.2f%%  ", s.index,
                      schedule(r), r.offeredRate, r.achievedRate, r.p99Millis, r.deliveredShare * 100)
            + verdict(s, console: true)
    }

    /// `   4000/s`, or `x120` at a multiple of the recorded pace.
    static func schedule(_ r: SweepStep) -> String {
        r.speed.map { String(format: "x%-8g", $0) } ?? String(format: "%7.0f/s", r.scheduledRate ?? r.offeredRate)
    }

    /// `pass`, or `FAIL [client window]: …`, with the step's purpose and a busy host named.
    static func verdict(_ s: Step, console: Bool = false) -> String {
        var v = s.passed ? "pass" : (console ? "FAIL" : "fail") + (s.limiter.map { " [\($0.kind.rawValue)]" } ?? "") + ": " + s.failures.joined(separator: "; ")
        if let p = s.purpose, p != .search { v += " (\(p.rawValue))" }
        if let host = s.result.host, host.short { v += " (host busy: \(host.split))" }
        // The limiter's own evidence where the failures do not already say it.
        if !s.passed, let l = s.limiter, [.clientCPU, .clientWindow, .target, .undecided].contains(l.kind) { v += "; " + l.line }
        return v
    }

    /// The sweep's findings, one per line: the knee with its bracket, what limits it, the busy host's steps,
    /// the client's ceiling, the headroom (markdown emphasis only).
    static func conclusionLines(_ o: Outcome) -> [String] {
        var out: [String] = []
        if let knee = o.knee {
            if let x = o.kneeSpeed {
                out.append(String(format: "**Knee: x%g the recorded pace** (it offered %.0f pushes/s), ", x, knee)
                    + (o.verdict?.bracket.map { $0.replacingOccurrences(of: " pushes/s", with: "× the recorded pace") } ?? ""))
            } else {
                // The bracket is in the schedule's rates (the search's); the knee in pushes offered (less the not sendable).
                let scheduled = o.verdict?.knee.map { String(format: " offered (scheduled %.0f/s)", $0) } ?? ""
                out.append(String(format: "**Knee: %.0f pushes/s**%@", knee, scheduled) + (o.verdict?.bracket.map { ", scheduled " + $0 } ?? ""))
            }
        } else {
            out.append("**No step passed**: the lowest rate already fails (see its verdict)")
        }
        out += limitLines(o)
        if let limit = o.recordingLimit { out.append("The search ended early: \(limit)") }
        if let why = o.interrupted { out.append("**Stopped by a signal**: \(why). The knee above is of the steps measured") }
        if let peak = o.recordedPeak {
            out.append(String(format: "Recorded peak at x1: busiest second %d pushes, busiest minute %.1f pushes/s", peak.peakSecond, peak.peakMinutePerSecond))
        }
        if let h = o.headroom { out.append("**Headroom**: " + h.lines.joined(separator: "; ")) }
        if let r = o.requirement { out.append(r.line) }
        return out
    }

    /// What limits the knee, the busy host's steps and the client's ceiling, named once: a step whose limiter
    /// is the client's CPU is the client's ceiling, and a sweep says the client kept up only when no step's
    /// limiter was the client's CPU or undecided.
    static func limitLines(_ o: Outcome) -> [String] {
        var out: [String] = []
        if o.knee != nil, let limit = o.kneeLimit, let l = limit.limiter, l.kind == .undecided {
            out.append(String(format: "**Undecided: the host was busy** (step %d at %.0f/s, the rate above the knee, measured again and still busy): ",
                              limit.step, limit.offeredRate) + l.line.dropFirst(l.kind.rawValue.count + 2).description)
        } else if o.knee != nil, let limit = o.kneeLimit {
            let evidence = limit.limiter.map { $0.line.dropFirst($0.kind.rawValue.count + 2).description } ?? limit.failures.joined(separator: "; ")
            out.append(String(format: "Limited by the **%@** (step %d at %.0f/s): ", limit.limiter?.kind.rawValue ?? (limit.client ? "client" : "target"),
                              limit.step, limit.offeredRate) + evidence)
        } else if o.knee != nil, let ended = o.steps.last(where: { $0.result.streamEnded }), let l = ended.limiter {
            out.append(String(format: "Limited by the **recording** (step %d at %.0f/s): ", ended.index, ended.result.offeredRate)
                + l.line.dropFirst(l.kind.rawValue.count + 2).description)
        } else if o.knee != nil {
            out.append("No rate above the knee failed: raise the search's high bound to find the limit")
        }
        let busy = o.steps.filter { $0.limiter?.kind == .undecided }
        if !busy.isEmpty {
            out.append("Undecided, the host was busy, at step(s) " + busy.map { s in
                String(format: "%d", s.index) + (s.remeasuredBy.map { " (measured again as step \($0))" } ?? "")
            }.joined(separator: ", ") + ": under half a core left idle, taken by other work or the in-process simulator, not the client's threads")
        }
        if let ceiling = o.ceiling {
            out.append(String(format: "Client ceiling: %.0f pushes/s, the most a step sent whose limiter was the client's CPU", ceiling))
        } else if !busy.isEmpty {
            out.append("Whether the client kept up is undecided at the busy step(s); no step's limiter was the client's CPU")
        } else {
            out.append("The client kept up at every step (no step's limiter was the client's CPU)")
        }
        return out
    }

    /// The table, the knee and the ceiling, for a PR comment or a terminal.
    public static func markdown(_ o: Outcome) -> String {
        var out = "# Rate sweep\n\n"
        out += String(format: "Criteria: sent ≥ %.0f%% of offered; p99 ≤ %.0f ms; delivered ≥ %.2f%% (of the pushes owed) and no new 429/5xx class; "
            + "p50 not rising within a step (late third ≤ %.1f× early third)",
                      o.criteria.minSendShare * 100, o.criteria.sloP99Millis, o.criteria.minDelivered * 100, o.criteria.trendFactor)
        let warmup = o.steps.first?.result.warmupSeconds ?? 0
        out += warmup > 0 ? String(format: "; each step's first %.0f s is warm-up, left out of its p99.\n\n", warmup) : ".\n\n"
        out += "Offered and sent count the pushes that could be sent: the schedule's rate less the pushes no target could take (tokens already answered 410, "
            + "channels gone).\n\n"
        out += "| step | schedule/s | offered/s | sent/s | not sendable | p99 ms | delivered | engine thread CPU | producer CPU | process CPU | verdict |\n"
            + "| --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --- |\n"
        let percent: (Double?) -> String = { $0.map { String(format: "%.0f%%", $0 * 100) } ?? "-" }
        for s in o.steps {
            let r = s.result
            out += String(format: "| %d | %@ | %.0f | %.0f | %.1f%% | %.1f | %.2f%% | %@ | %@ | %@ | %@ |\n", s.index,
                          r.speed.map { String(format: "x%g", $0) } ?? String(format: "%.0f", r.scheduledRate ?? r.offeredRate),
                          r.offeredRate, r.achievedRate, r.notSendableShare * 100, r.p99Millis, r.deliveredShare * 100,
                          percent(r.engineCPU), percent(r.producerCPU), percent(r.processCPU), verdict(s))
        }
        out += "\n" + conclusionLines(o).map { $0 + "\n" }.joined()
        return out
    }
}
