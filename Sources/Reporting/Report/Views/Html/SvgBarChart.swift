import Foundation

/// A horizontal bar chart as inline SVG: one bar per labelled item, its label above it and its value at
/// its end, on a shared axis from 0. Made for small multiples (``MatrixHtml``: one chart per metric, one
/// bar per matrix cell), so it is narrow and long labels get a line of their own instead of being cut.
///
/// An item without a value (the metric was not counted in that run) keeps its row and says so; a chart
/// with no value at all renders as a sentence (``emptyText``). A drawn chart carries `data-points="N"`,
/// the number of bars it draws, as ``SvgChart`` does.
struct SvgBarChart {
    struct Bar {
        /// Taken from a report: escaped and redacted here.
        var label: String
        var value: Double?
    }

    var title: String
    /// Under the axis, e.g. `ms` or `pushes`.
    var axisLabel: String
    var emptyText: String
    var bars: [Bar]
    /// The value at a bar's end and the tick labels.
    var format: (Double) -> String = SvgBarChart.compact

    static let width = 440.0
    static let rowHeight = 34.0, barHeight = 14.0
    static let left = 16.0, right = 64.0, top = 4.0, bottom = 34.0

    /// A value in at most about three digits, for a bar's end (the table beside has it exactly):
    /// `2`, `0.25`, `10.3`, `1321`, `30.9k`, `173k`, `1.25M`.
    static func compact(_ v: Double) -> String {
        func digits(_ x: Double) -> String { abs(x) >= 100 ? String(format: "%.0f", x) : abs(x) >= 10 ? String(format: "%.1f", x) : String(format: "%.2f", x) }
        func trimmed(_ text: String) -> String {
            guard text.contains(".") else { return text }
            var t = text
            while t.hasSuffix("0") { t.removeLast() }
            if t.hasSuffix(".") { t.removeLast() }
            return t
        }
        let a = abs(v)
        if a >= 1_000_000 { return trimmed(digits(v / 1_000_000)) + "M" }
        if a >= 10_000 { return trimmed(digits(v / 1_000)) + "k" }
        if a >= 100 { return String(format: "%.0f", v) }
        return trimmed(digits(v))
    }

    var dataPoints: Int { bars.filter { $0.value != nil }.count }

    func render() -> String {
        guard dataPoints > 0 else {
            return "<figure class=\"chart\"><figcaption>\(HtmlEscape.escape(title))</figcaption>"
                + "<p class=\"empty\">\(HtmlEscape.escape(emptyText))</p></figure>\n"
        }
        let plotW = Self.width - Self.left - Self.right
        let plotH = Double(bars.count) * Self.rowHeight
        let height = Self.top + plotH + Self.bottom
        let maxValue = bars.compactMap(\.value).max() ?? 0
        let ticks = SvgChart.ticks(from: 0, to: maxValue > 0 ? maxValue : 1)
        let top = Swift.max(ticks.last ?? 1, maxValue > 0 ? maxValue : 1)
        func px(_ v: Double) -> Double { Self.left + Swift.max(0, v) / top * plotW }
        let c = SvgChart.coord

        var svg = "<svg class=\"bars\" viewBox=\"0 0 \(Int(Self.width)) \(Int(height.rounded(.up)))\" role=\"img\" "
            + "aria-label=\"\(HtmlEscape.escape(title))\" data-points=\"\(dataPoints)\">"
        svg += "<g class=\"grid\">"
        for t in ticks where t <= top {
            svg += "<line x1=\"\(c(px(t)))\" y1=\"\(c(Self.top))\" x2=\"\(c(px(t)))\" y2=\"\(c(Self.top + plotH))\"/>"
        }
        svg += "</g><g class=\"ticks\">"
        for t in ticks where t <= top {
            svg += "<text x=\"\(c(px(t)))\" y=\"\(c(Self.top + plotH + 14))\" text-anchor=\"middle\">\(HtmlEscape.escape(format(t)))</text>"
        }
        svg += "<text class=\"label\" x=\"\(c(Self.left + plotW / 2))\" y=\"\(c(height - 4))\" "
            + "text-anchor=\"middle\">\(HtmlEscape.escape(axisLabel))</text></g>"
        for (i, bar) in bars.enumerated() {
            let rowTop = Self.top + Double(i) * Self.rowHeight
            let label = HtmlEscape.text(bar.label)
            svg += "<text x=\"\(c(Self.left))\" y=\"\(c(rowTop + 12))\">\(label)</text>"
            let barY = rowTop + 16
            if let v = bar.value {
                let shown = HtmlEscape.escape(format(v))
                svg += "<rect class=\"bar\" x=\"\(c(Self.left))\" y=\"\(c(barY))\" width=\"\(c(Swift.max(1, px(v) - Self.left)))\" "
                    + "height=\"\(c(Self.barHeight))\"><title>\(label): \(shown)</title></rect>"
                svg += "<text class=\"value\" x=\"\(c(px(v) + 4))\" y=\"\(c(barY + 11))\">\(shown)</text>"
            } else {
                svg += "<text class=\"missing\" x=\"\(c(Self.left + 2))\" y=\"\(c(barY + 11))\">not counted</text>"
            }
        }
        svg += "<line x1=\"\(c(Self.left))\" y1=\"\(c(Self.top))\" x2=\"\(c(Self.left))\" y2=\"\(c(Self.top + plotH))\" stroke=\"#9e9e9e\"/>"
        svg += "</svg>"
        return "<figure class=\"chart\"><figcaption>\(HtmlEscape.escape(title))</figcaption>\(svg)</figure>\n"
    }
}
