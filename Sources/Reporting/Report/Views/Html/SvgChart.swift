import Foundation

/// One chart of `report.html`, drawn as inline SVG by this code: axes with ticks, lines, stacked areas
/// and event markers. No script and no fonts of its own; colours come from the page's CSS classes
/// (`s-NAME` for a series, `m-NAME` for a marker kind), so print and screen share one stylesheet.
///
/// A chart with nothing to draw renders as a sentence (``emptyText``), never as an empty SVG; a drawn
/// chart carries `data-points="N"`, the number of points it plots, so a test can tell the two apart.
struct SvgChart {
    /// How x values are placed.
    enum XScale {
        /// x as it is (seconds since the start of the run).
        case linear
        /// x is a percentile in percent (90 … 99.999), placed at log10(1 / (1 − p/100)): 90 % at 1,
        /// 99 % at 2, 99.9 % at 3 … — HdrHistogram's percentile-spectrum axis.
        case percentile
    }

    /// How y values are placed.
    enum YScale {
        /// From 0 up, evenly.
        case linear
        /// Decades evenly spaced, from the decade below the smallest positive y to the one above the
        /// largest: for latencies that span orders of magnitude. Lines only (not stacked areas); values
        /// at or below 0 sit on the axis.
        case log
    }

    /// A line through its points.
    struct Series {
        var name: String
        /// The CSS class suffix: `s-` + style.
        var style: String
        var points: [ChartPoint]
        var dashed = false
        /// A dot at every point (measurements, as against a drawn curve).
        var dots = false
        /// The points joined by a line; false with `dots` makes a scatter.
        var joined = true
    }

    /// One layer of the stacked areas: a value per ``SvgChart/stackX`` entry.
    struct Layer {
        var name: String
        var style: String
        var values: [Double]
    }

    /// A vertical mark at one x: something that happened then (a GOAWAY, a reconnect, a re-sign).
    struct Marker {
        var x: Double
        /// Shown on hover (the SVG `<title>`), e.g. `GOAWAY ×2 at 34 s`.
        var label: String
        /// The CSS class suffix: `m-` + kind.
        var kind: String
        /// Printed beside the mark's top, e.g. `knee 8000/s`; nil: the label shows on hover only.
        var caption: String? = nil
        /// A dot on the line's top; false for a mark that must not read as a data point (a sweep's knee).
        var dot = true
    }

    var title: String
    var xLabel: String
    var yLabel: String
    /// Said instead of drawing when there is nothing to draw, e.g. "no deliveries in this run".
    var emptyText: String
    var xScale: XScale = .linear
    /// Tick labels of a linear x axis (seconds by default: most charts are timelines).
    var formatX: (Double) -> String = SvgChart.seconds
    var yScale: YScale = .linear
    var formatY: (Double) -> String = SvgChart.number
    /// The y values are counts of things (connections, pushes): ticks only at whole numbers.
    var wholeY = false
    var lines: [Series] = []
    /// The x of every stacked value; each layer has one value per entry.
    var stackX: [Double] = []
    var layers: [Layer] = []
    var markers: [Marker] = []
    /// Legend entries for marker kinds: (kind, name).
    var markerLegend: [(kind: String, name: String)] = []

    static let width = 900.0
    static let height = 280.0
    static let left = 64.0, right = 40.0, top = 14.0, bottom = 42.0

    /// Points plotted: every line's points plus every layer's values.
    var dataPoints: Int {
        lines.reduce(0) { $0 + $1.points.count } + layers.reduce(0) { $0 + $1.values.count }
    }

    func render() -> String {
        guard dataPoints > 0 else {
            return "<figure class=\"chart\"><figcaption>\(HtmlEscape.escape(title))</figcaption>"
                + "<p class=\"empty\">\(HtmlEscape.escape(emptyText))</p></figure>\n"
        }
        let tops = stackTops
        let plot = frame(stackTops: tops)
        var svg = "<svg class=\"plot\" viewBox=\"0 0 \(Int(Self.width)) \(Int(Self.height))\" role=\"img\" "
            + "aria-label=\"\(HtmlEscape.escape(title))\" data-points=\"\(dataPoints)\">"
        svg += axes(plot)
        svg += areas(plot, stackTops: tops)
        svg += lineMarks(plot)
        svg += markerMarks(plot)
        svg += "</svg>"
        return "<figure class=\"chart\"><figcaption>\(HtmlEscape.escape(title))</figcaption>\(svg)\(legend)</figure>\n"
    }

    /// The stacked layers' tops, cumulative per x, bottom layer first.
    private var stackTops: [[Double]] {
        var tops: [[Double]] = []
        var running = [Double](repeating: 0, count: stackX.count)
        for layer in layers {
            for i in running.indices where i < layer.values.count { running[i] += Swift.max(0, layer.values[i]) }
            tops.append(running)
        }
        return tops
    }

    /// The plot's domains and ticks, from every point, layer and marker.
    private func frame(stackTops tops: [[Double]]) -> Frame {
        var xs: [Double] = stackX
        for s in lines { xs += s.points.map(\.x) }
        xs += markers.map(\.x)
        var f = Frame(xScale: xScale, yScale: yScale)
        switch xScale {
        case .percentile:
            f.xDomain = (1, 5)
            f.xTicks = [(1, "90%"), (2, "99%"), (3, "99.9%"), (4, "99.99%"), (5, "99.999%")]
        case .linear:
            var lo = xs.min() ?? 0, hi = xs.max() ?? 1
            if hi <= lo { lo -= 0.5; hi += 0.5 }
            let ticks = Self.ticks(from: lo, to: hi).filter { $0 <= hi + (hi - lo) * 1e-9 }
            f.xDomain = (lo, hi)
            f.xTicks = ticks.map { ($0, formatX($0)) }
        }
        var yMax = 0.0
        for s in lines { yMax = Swift.max(yMax, s.points.map(\.y).max() ?? 0) }
        if let last = tops.last { yMax = Swift.max(yMax, last.max() ?? 0) }
        f.yTicks = Self.ticks(from: 0, to: yMax > 0 ? yMax : 1)
        if wholeY { f.yTicks = f.yTicks.filter { $0 == $0.rounded() } }
        f.yTop = Swift.max(f.yTicks.last ?? 1, yMax > 0 ? yMax : 1)
        // Log scale: the domain in decades, log10(yBottom) … log10(yTop).
        if yScale == .log {
            let positive = lines.flatMap { $0.points.map(\.y) }.filter { $0 > 0 }
            let lo = floor(log10(positive.min() ?? 1)), hi = Swift.max(ceil(log10(positive.max() ?? 10)), lo + 1)
            f.yBottom = pow(10, lo)
            f.yTop = pow(10, hi)
            f.yTicks = Self.logTicks(decades: Int(lo)...Int(hi))
        }
        return f
    }

    /// The grid, the tick labels, the axis labels and the frame.
    private func axes(_ f: Frame) -> String {
        let plotW = Frame.plotW, plotH = Frame.plotH
        var svg = "<g class=\"grid\">"
        for t in f.yTicks where t <= f.yTop {
            let y = Self.coord(f.py(t))
            svg += "<line x1=\"\(Self.coord(Self.left))\" y1=\"\(y)\" x2=\"\(Self.coord(Self.left + plotW))\" y2=\"\(y)\"/>"
        }
        for (t, _) in f.xTicks {
            let x = Self.coord(f.px(xScale == .percentile ? Self.percentile(at: t) : t))
            svg += "<line x1=\"\(x)\" y1=\"\(Self.coord(Self.top))\" x2=\"\(x)\" y2=\"\(Self.coord(Self.top + plotH))\"/>"
        }
        svg += "</g><g class=\"ticks\">"
        for t in f.yTicks where t <= f.yTop {
            svg += "<text x=\"\(Self.coord(Self.left - 6))\" y=\"\(Self.coord(f.py(t) + 4))\" text-anchor=\"end\">\(HtmlEscape.escape(formatY(t)))</text>"
        }
        for (t, label) in f.xTicks {
            let x = f.px(xScale == .percentile ? Self.percentile(at: t) : t)
            svg += "<text x=\"\(Self.coord(x))\" y=\"\(Self.coord(Self.top + plotH + 16))\" text-anchor=\"middle\">\(HtmlEscape.escape(label))</text>"
        }
        svg += "<text class=\"label\" x=\"\(Self.coord(Self.left + plotW / 2))\" y=\"\(Self.coord(Self.height - 6))\" "
            + "text-anchor=\"middle\">\(HtmlEscape.escape(xLabel))</text>"
        svg += "<text class=\"label\" transform=\"translate(14 \(Self.coord(Self.top + plotH / 2))) rotate(-90)\" "
            + "text-anchor=\"middle\">\(HtmlEscape.escape(yLabel))</text>"
        svg += "</g>"
        svg += "<rect class=\"frame\" x=\"\(Self.coord(Self.left))\" y=\"\(Self.coord(Self.top))\" width=\"\(Self.coord(plotW))\" "
            + "height=\"\(Self.coord(plotH))\"/>"
        return svg
    }

    /// The stacked areas, bottom layer first.
    private func areas(_ f: Frame, stackTops tops: [[Double]]) -> String {
        var svg = ""
        for (i, layer) in layers.enumerated() where !stackX.isEmpty {
            let upper = tops[i]
            let lower = i == 0 ? [Double](repeating: 0, count: stackX.count) : tops[i - 1]
            var points: [String] = []
            points.reserveCapacity(stackX.count * 2)
            for j in stackX.indices { points.append(f.pair(stackX[j], upper[j])) }
            for j in stackX.indices.reversed() { points.append(f.pair(stackX[j], lower[j])) }
            svg += "<polygon class=\"area s-\(layer.style)\" "
                + "points=\"\(points.joined(separator: " "))\"><title>\(HtmlEscape.escape(layer.name))</title></polygon>"
        }
        return svg
    }

    /// Each series: a polyline, a dot for a single point, or dots (over their line, if joined).
    private func lineMarks(_ f: Frame) -> String {
        var svg = ""
        for s in lines where !s.points.isEmpty {
            let cls = "line s-\(s.style)" + (s.dashed ? " dashed" : "")
            if s.dots {
                // Over the line, if any: the measurements stay visible where lines cross.
                if s.joined, s.points.count > 1 {
                    svg += "<polyline class=\"\(cls)\" points=\"\(s.points.map { f.pair($0.x, $0.y) }.joined(separator: " "))\"/>"
                }
                svg += "<g class=\"dots s-\(s.style)\"><title>\(HtmlEscape.escape(s.name))</title>"
                for p in s.points { svg += "<circle cx=\"\(Self.coord(f.px(p.x)))\" cy=\"\(Self.coord(f.py(p.y)))\" r=\"3.5\"/>" }
                svg += "</g>"
            } else if s.points.count == 1 {
                let p = s.points[0]
                svg += "<circle class=\"\(cls)\" cx=\"\(Self.coord(f.px(p.x)))\" cy=\"\(Self.coord(f.py(p.y)))\" "
                    + "r=\"3\"><title>\(HtmlEscape.escape(s.name))</title></circle>"
            } else {
                let points = s.points.map { f.pair($0.x, $0.y) }.joined(separator: " ")
                svg += "<polyline class=\"\(cls)\" points=\"\(points)\"><title>\(HtmlEscape.escape(s.name))</title></polyline>"
            }
        }
        return svg
    }

    /// The event markers: a vertical line with a dot on top, and its caption beside it.
    private func markerMarks(_ f: Frame) -> String {
        var svg = ""
        for m in markers {
            let x = Self.coord(f.px(m.x))
            svg += "<g class=\"marker m-\(m.kind)\"><title>\(HtmlEscape.escape(m.label))</title>"
                + "<line x1=\"\(x)\" y1=\"\(Self.coord(Self.top))\" x2=\"\(x)\" y2=\"\(Self.coord(Self.top + Frame.plotH))\"/>"
                + (m.dot ? "<circle cx=\"\(x)\" cy=\"\(Self.coord(Self.top + 4))\" r=\"3.5\"/>" : "")
            if let caption = m.caption {
                // Right of the line, or left of it when the line is in the plot's right fifth.
                let leftSide = f.px(m.x) > Self.left + Frame.plotW * 0.8
                svg += "<text class=\"caption\" x=\"\(Self.coord(f.px(m.x) + (leftSide ? -6 : 6)))\" y=\"\(Self.coord(Self.top + 14))\" "
                    + "text-anchor=\"\(leftSide ? "end" : "start")\">\(HtmlEscape.escape(caption))</text>"
            }
            svg += "</g>"
        }
        return svg
    }

    private var legend: String {
        var legend = "<ul class=\"legend\">"
        for layer in layers { legend += "<li><span class=\"sw s-\(layer.style)\"></span>\(HtmlEscape.escape(layer.name))</li>" }
        for s in lines {
            let swatch = s.dots && !s.joined ? "sw mk s-\(s.style)" : "sw line s-\(s.style)\(s.dashed ? " dashed" : "")"
            legend += "<li><span class=\"\(swatch)\"></span>\(HtmlEscape.escape(s.name))</li>"
        }
        for m in markerLegend { legend += "<li><span class=\"sw mk m-\(m.kind)\"></span>\(HtmlEscape.escape(m.name))</li>" }
        legend += "</ul>"
        return legend
    }

    /// Where values land on the plot: the domains, the ticks and the mapping to SVG coordinates.
    struct Frame {
        static let plotW = SvgChart.width - SvgChart.left - SvgChart.right
        static let plotH = SvgChart.height - SvgChart.top - SvgChart.bottom
        var xScale: XScale
        var yScale: YScale
        var xDomain = (0.0, 1.0)
        var xTicks: [(Double, String)] = []
        var yTicks: [Double] = []
        var yTop = 1.0
        var yBottom = 0.0

        func px(_ x: Double) -> Double {
            let v = xScale == .percentile ? SvgChart.percentilePosition(x) : x
            return SvgChart.left + (v - xDomain.0) / (xDomain.1 - xDomain.0) * Self.plotW
        }

        func py(_ y: Double) -> Double {
            guard yScale == .log else { return SvgChart.top + Self.plotH - (y / yTop) * Self.plotH }
            let v = (log10(Swift.max(y, yBottom)) - log10(yBottom)) / (log10(yTop) - log10(yBottom))
            return SvgChart.top + Self.plotH - v * Self.plotH
        }

        func pair(_ x: Double, _ y: Double) -> String { SvgChart.coord(px(x)) + "," + SvgChart.coord(py(y)) }
    }

    // MARK: - Scales and numbers

    /// log10(1 / (1 − p/100)) for a percentile p in percent, clamped to the axis (90 … 99.999).
    static func percentilePosition(_ p: Double) -> Double {
        let clamped = Swift.min(Swift.max(p, 90), 99.999)
        return log10(1 / (1 - clamped / 100))
    }

    /// The percentile (in percent) at a position of the percentile axis.
    static func percentile(at position: Double) -> Double { 100 * (1 - pow(10, -position)) }

    /// About five round ticks (1, 2 or 5 × 10ⁿ apart) covering `lo … hi`.
    static func ticks(from lo: Double, to hi: Double) -> [Double] {
        let span = hi - lo
        guard span > 0, span.isFinite else { return [lo] }
        let raw = span / 5
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
        var out: [Double] = []
        var t = ceil(lo / step) * step
        while t <= hi + step * 1e-9, out.count < 20 {
            out.append(t)
            t += step
        }
        if let last = out.last, last < hi - step * 1e-9 { out.append(last + step) }
        return out
    }

    /// Ticks of a log axis over whole decades: each power of ten, and 2× and 5× it when there are at
    /// most three decades (so a narrow range still has labels to read).
    static func logTicks(decades: ClosedRange<Int>) -> [Double] {
        let fine = decades.count <= 4
        var out: [Double] = []
        for d in decades {
            let base = pow(10, Double(d))
            out.append(base)
            if fine, d < decades.upperBound { out += [2 * base, 5 * base] }
        }
        return out
    }

    /// A coordinate with one decimal: short, and finer than a pixel.
    static func coord(_ v: Double) -> String {
        let tenths = (v * 10).rounded()
        guard tenths.isFinite else { return "0" }
        let i = Int(tenths)
        let sign = i < 0 ? "-" : ""
        let a = abs(i)
        return a % 10 == 0 ? sign + String(a / 10) : sign + String(a / 10) + "." + String(a % 10)
    }

    /// A tick label: `0`, `250`, `1.5k`, `2M`, `0.25`.
    static func number(_ v: Double) -> String {
        let a = abs(v)
        if a >= 1_000_000 { return trim(v / 1_000_000) + "M" }
        if a >= 10_000 { return trim(v / 1_000) + "k" }
        if a >= 1 || a == 0 { return trim(v) }
        return String(format: "%.3g", v)
    }

    /// Seconds as an axis label: `90 s`, `15 min`, `1.5 h`.
    static func seconds(_ s: Double) -> String {
        if abs(s) >= 7_200 { return trim(s / 3_600) + " h" }
        if abs(s) >= 600 { return trim(s / 60) + " min" }
        return trim(s) + " s"
    }

    /// At most two decimals, trailing zeros dropped.
    static func trim(_ v: Double) -> String {
        var text = String(format: "%.2f", v)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
