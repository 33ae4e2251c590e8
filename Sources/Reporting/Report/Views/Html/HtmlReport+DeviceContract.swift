import APNsCore

/// The device contract on the page: delivered pushes the device would not decode, by field, with samples.
extension HtmlReport {
    func deviceContract() -> String {
        guard let w = report.pushes.wouldNotDecode else { return "" }
        let delivered = report.pushes.delivered
        var t = "<p><strong>\(w.total) of \(delivered) delivered pushes would not decode on the device</strong>: APNs answered 200, "
            + "and the app's ActivityKit model, \(HtmlEscape.text(SummaryText.modelsLabel(report.configuration))), does not decode their "
            + "<code>content-state</code> (or, for a start, <code>attributes</code>), so the device drops them without a trace. "
            + "\(w.checked) Live Activity pushes checked, \(w.failedCheck) failing whatever APNs answered"
            + (w.notChecked > 0 ? "; \(w.notChecked) not checked (no <code>aps.event</code>)" : "") + ".</p>\n"
        if !w.byField.isEmpty {
            t += "<table><thead><tr><th>field: reason</th><th class=\"n\">delivered pushes</th></tr></thead><tbody>\n"
            for (key, n) in Format.byCount(w.byField) { t += "<tr><td><code>\(HtmlEscape.text(key))</code></td><td class=\"n\">\(n)</td></tr>\n" }
            t += "</tbody></table>\n"
        }
        if !w.samples.isEmpty {
            t += "<ol>\n"
            for s in w.samples {
                t += "<li>token <code>\(HtmlEscape.text(s.token))</code>, event <code>\(HtmlEscape.text(s.event ?? "?"))</code>: "
                    + s.failures.map { HtmlEscape.text($0) }.joined(separator: "; ")
                    + "<br><code>\(HtmlEscape.text(s.payload))</code></li>\n"
            }
            t += "</ol>\n"
        }
        return section("device-contract", "Device contract: delivered, would not decode on device", t)
    }
}
