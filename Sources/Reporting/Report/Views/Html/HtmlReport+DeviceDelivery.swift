import APNsCore
import DeviceDelivery

/// The device side of delivery on the page: what the devices did with the delivered pushes, and the time to
/// device by priority as a percentile spectrum.
extension HtmlReport {
    func device() -> String {
        guard let d = report.device else { return "" }
        var t = "<p>What the devices did with the <strong>\(d.pushes) pushes APNs accepted</strong>, "
            + "\(HtmlEscape.text(SenderWording.deviceClock(report))).</p>\n"
        t += "<table><thead><tr><th>on the device</th><th class=\"n\">pushes</th><th class=\"n\">share</th><th>by cause</th></tr></thead><tbody>\n"
        for c in DeviceDeliveryOutcomeClass.allCases {
            let causes = c == .replaced ? d.replaced : c == .dropped ? d.dropped : [:]
            let by = causes.sorted { $0.key < $1.key }.map { "\(HtmlEscape.text($0.key)) \($0.value)" }.joined(separator: ", ")
            t += "<tr><td>\(c.rawValue.replacingOccurrences(of: "_", with: " "))</td><td class=\"n\">\(d.outcomes[c.rawValue] ?? 0)</td>"
                + "<td class=\"n\">\(Format.fixed(d.share(c) * 100, places: 2)) %</td><td>\(by)</td></tr>\n"
        }
        t += "</tbody></table>\n"
        t += "<table><thead><tr><th>\(HtmlEscape.text(SenderWording.timeToDeviceLabel(report)))</th><th class=\"n\">shown</th><th class=\"n\">p50</th>"
            + "<th class=\"n\">p90</th><th class=\"n\">p99</th><th class=\"n\">max</th></tr></thead><tbody>\n"
        let priorities = d.timeToDevice.byPriority.keys.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
        let rows = priorities.map { ("priority \($0)", d.timeToDevice.byPriority[$0]!) }
            + d.timeToDevice.byPushType.sorted { $0.key < $1.key }.map { ("push type \($0.key)", $0.value) }
        for (label, s) in rows {
            t += "<tr><td>\(HtmlEscape.text(label))</td><td class=\"n\">\(s.count)</td>"
                + [s.p50, s.p90, s.p99, s.max].map { "<td class=\"n\">\(SummaryText.deviceTime($0))</td>" }.joined() + "</tr>\n"
        }
        t += "</tbody></table>\n"
        let lines = priorities.map { key in
            SvgChart.Series(name: "priority \(key)", style: Self.priorityStyle(key),
                            // The histograms hold ms, so the spectrum's thousandths are seconds.
                            points: Self.spectrum(encoded: d.timeToDevice.histograms.byPriority[key], summary: d.timeToDevice.byPriority[key]!))
        }
        t += SvgChart(title: "Time to device by priority", xLabel: "percentile", yLabel: "time to device (s)",
                      emptyText: "no push was shown", xScale: .percentile, lines: lines).render()
        return section("device", "On the device", t)
    }
}
