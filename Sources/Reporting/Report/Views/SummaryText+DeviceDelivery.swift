import APNsCore
import DeviceDelivery

/// The device side of delivery in the text views.
extension SummaryText {
    /// `12 m 5 s`, `850 ms`: a time to device in recorded milliseconds.
    static func deviceTime(_ ms: Int) -> String {
        if ms < 1000 { return "\(ms) ms" }
        let s = ms / 1000
        if s < 60 { return "\(Format.fixed(Double(ms) / 1000, places: 1)) s" }
        if s < 3600 { return "\(s / 60) min \(s % 60) s" }
        return "\(s / 3600) h \(s % 3600 / 60) min"
    }

    /// `priority override 5:liveactivity reached 1,200 pushes, changed 1,150`, or nil without an override.
    static func priorityOverrideLine(_ report: RunReport) -> String? {
        guard let o = report.configuration.payload.priorityOverride, let n = report.priorityOverride else { return nil }
        return "priority override \(o) reached \(n.reached) pushes and changed the priority of \(n.changed)"
    }

    /// `priority 5 (the profile's, or --priority) reached 120 of 1,000 pushes planned; 880 carry their own priority
    /// from the recipe: …priority_override…`, or nil with an override or when every push took the profile's.
    static func priorityReachLine(_ report: RunReport) -> String? {
        guard report.configuration.payload.priorityOverride == nil, let own = report.events.pushesAtOwnPriority, own > 0 else { return nil }
        let planned = report.pushes.planned, p = report.configuration.payload.priority.rawValue
        let reached = max(0, planned - own)
        var line = "priority \(p) (the profile's, or --priority) reached \(reached) of \(planned) pushes planned; \(own) carry their own priority "
            + "from the recipe"
        if reached * 2 < planned { line += ": to set every push's priority, use priority_override \(p) (--priority-override \(p))" }
        return line
    }

    /// The console's line under `delivered`, or nil when devices were not modelled.
    static func deviceLine(_ report: RunReport) -> String? {
        guard let d = report.device else { return nil }
        let counts = DeviceDeliveryOutcomeClass.allCases.map { "\($0.rawValue.replacingOccurrences(of: "_", with: " ")) \(d.outcomes[$0.rawValue] ?? 0)" }
        var line = "   ↳ on device: " + counts.joined(separator: ", ")
        let priorities = d.timeToDevice.byPriority.sorted { (Int($0.key) ?? 0) > (Int($1.key) ?? 0) }
        if !priorities.isEmpty {
            line += " · time to device " + priorities.map { "priority \($0.key) p50 \(deviceTime($0.value.p50)), p99 \(deviceTime($0.value.p99))" }
                .joined(separator: "; ")
        }
        return line
    }

    /// `## On the device` of `summary.md`: outcomes with their causes, and time to device by priority and push
    /// type; nothing when devices were not modelled.
    static func device(_ report: RunReport, into md: inout String) {
        guard let d = report.device else { return }
        func line(_ text: String = "") { md += text + "\n" }
        line("## On the device")
        line()
        if let o = priorityOverrideLine(report) { line("The " + o + ".\n") }
        if let o = priorityReachLine(report) { line("The " + o + ".\n") }
        line("What the devices did with the \(d.pushes) pushes APNs accepted, \(SenderWording.deviceClock(report)).")
        line()
        line("| outcome | pushes | share | by cause |")
        line("| --- | --: | --: | --- |")
        for c in DeviceDeliveryOutcomeClass.allCases {
            let causes = c == .replaced ? d.replaced : c == .dropped ? d.dropped : [:]
            let by = causes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            line("| \(c.rawValue) | \(d.outcomes[c.rawValue] ?? 0) | \(Format.fixed(d.share(c) * 100, places: 2)) % | \(by) |")
        }
        if d.shownStale > 0 { line("\n\(d.shownStale) pushes were shown after their `stale-date`.") }
        line()
        line("| \(SenderWording.timeToDeviceLabel(report)) | shown | p50 | p90 | p99 | max |")
        line("| --- | --: | --: | --: | --: | --: |")
        let rows = d.timeToDevice.byPriority.sorted { (Int($0.key) ?? 0) > (Int($1.key) ?? 0) }.map { ("priority \($0.key)", $0.value) }
            + d.timeToDevice.byPushType.sorted { $0.key < $1.key }.map { ("push type \($0.key)", $0.value) }
        for (label, s) in rows {
            line("| \(label) | \(s.count) | \(deviceTime(s.p50)) | \(deviceTime(s.p90)) | \(deviceTime(s.p99)) | \(deviceTime(s.max)) |")
        }
        line()
    }
}
