import APNsCore

/// The device contract in the text views: delivered pushes the device would not decode.
extension SummaryText {
    /// `LeaveRequestAttributes.swift (dates deferredToDate)`: the models a run checked against, by file name.
    static func modelsLabel(_ c: RunConfig) -> String {
        let files = c.workload.parts.compactMap(\.activityModel)
        let names = files.map { "\(fileName($0.path))\($0.attributesType.map { " \($0)" } ?? "") (dates \($0.dateDecoding.rawValue))" }
        return Array(Set(names)).sorted().joined(separator: ", ")
    }

    /// The console's line under `delivered`, or nil when no model was named.
    static func wouldNotDecodeLine(_ report: RunReport) -> String? {
        guard let w = report.pushes.wouldNotDecode else { return nil }
        var line = "   ↳ would not decode on device \(w.total) of \(report.pushes.delivered) delivered" + breakdown(w.byField)
        if w.total == 0 { line += "; \(w.checked) checked as planned (sent or not) against \(modelsLabel(report.configuration))" }
        if w.notChecked > 0 { line += "; \(w.notChecked) not checked (no aps.event)" }
        if let partly = w.checkedPartly, partly > 0 {
            line += "; \(w.checkedFully) checked fully, \(partly) partly (\(w.uncheckedParts?.count ?? 0) part\(w.uncheckedParts?.count == 1 ? "" : "s") "
                + "of the model not checked)"
        }
        return line
    }

    /// `## Device contract` of `summary.md`: the models, the counts by field and the samples; nothing when no
    /// model was named.
    static func deviceContract(_ report: RunReport, into md: inout String) {
        guard let w = report.pushes.wouldNotDecode else { return }
        func line(_ text: String = "") { md += text + "\n" }
        line("## Device contract")
        line()
        line("Each Live Activity push was checked, as the device decodes it, against the app's ActivityKit model: "
            + "\(Format.cell(modelsLabel(report.configuration))). **\(w.total) of \(report.pushes.delivered) "
            + "delivered pushes would not decode on the device**, which "
            + "drops them without a trace. \(w.checked) pushes checked as they were planned, \(w.failedCheck) of them failing "
            + "(whether or not they were sent, and whatever APNs answered)"
            + (w.notChecked > 0 ? "; \(w.notChecked) not checked (their payload names no `aps.event`)" : "") + ".")
        line()
        if let parts = w.uncheckedParts, !parts.isEmpty {
            line("\(w.checkedFully) pushes were checked fully and \(w.checkedPartly ?? 0) partly: how these parts of the model decode "
                + "cannot be known from the model file, so their values are not checked:")
            line()
            for part in parts { line("- \(Format.cell(part))") }
            line()
        }
        if !w.byField.isEmpty {
            line("| field: reason | delivered pushes |")
            line("|:--|--:|")
            for (key, n) in Format.byCount(w.byField) { line("| \(Format.code(key)) | \(n) |") }
            line()
        }
        for (i, s) in w.samples.enumerated() {
            line("\(i + 1). token \(Format.code(s.token)), event \(Format.code(s.event ?? "?")): "
                + s.failures.map { Format.cell($0) }.joined(separator: "; "))
            line("   " + Format.code(s.payload))
        }
        if !w.samples.isEmpty { line() }
    }
}

/// The last component of a path.
private func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
