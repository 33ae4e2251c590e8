/// The page's only stylesheet, inline: system fonts (no downloads), a palette shared by the charts'
/// series (`s-NAME`) and markers (`m-NAME`), and a print layout that keeps charts whole and in colour.
enum HtmlStyle {
    /// Series colours by CSS class suffix.
    static let series: [(String, String)] = [
        ("delivered", "#2e7d32"), ("rejected", "#ef6c00"), ("failed", "#c62828"), ("timedout", "#6a1b9a"),
        ("errors", "#c62828"), ("sent", "#0d47a1"), ("response", "#1565c0"), ("service", "#00897b"),
        ("p50", "#1565c0"), ("p99", "#c62828"), ("inflight", "#37474f"), ("connections", "#1565c0"),
        ("p10", "#1565c0"), ("p5", "#ef6c00"), ("p1", "#6d4c41"), ("other", "#757575"),
        ("transport", "#c62828"), ("answered", "#ef6c00"),
    ]
    /// Marker colours by kind.
    static let markers: [(String, String)] = [("goaway", "#c62828"), ("reconnect", "#ef6c00"), ("resign", "#6a1b9a"),
                                              ("lost", "#b71c1c"), ("resend", "#00838f")]

    static var css: String {
        let css = """
            :root{color-scheme:light}
            body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#212121;background:#fff;max-width:1000px;margin:0 \
            auto;padding:16px 20px 40px;line-height:1.4;font-size:14px}
            h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
            .meta{color:#555;margin:0 0 10px}
            header{border:2px solid #2e7d32;border-radius:6px;padding:12px 16px;background:#f1f8e9}
            header.bad{border-color:#c62828;background:#ffebee}
            .verdict{font-size:20px;font-weight:600;margin:6px 0}
            ul.slo{list-style:none;padding:0;margin:4px 0 8px}ul.slo li.missed{color:#b71c1c;font-weight:600}ul.slo li.met{color:#1b5e20}
            dl.kpis{display:flex;flex-wrap:wrap;gap:8px 28px;margin:8px 0 0}dl.kpis div{min-width:110px}
            dl.kpis dt{color:#555;font-size:12px}dl.kpis dd{margin:0;font-size:20px;font-weight:600}
            table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
            th,td{border-bottom:1px solid #e0e0e0;padding:3px 10px;text-align:left;vertical-align:top}
            td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
            tr.total td{font-weight:600;border-top:2px solid #9e9e9e}tr.sub td:first-child{padding-left:26px;color:#424242}
            code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
            .empty{color:#555;font-style:italic;border:1px dashed #bbb;padding:14px;margin:6px 0}
            figure.chart{margin:10px 0 18px}figcaption{font-weight:600;margin-bottom:2px}
            svg.plot{width:100%;height:auto;display:block;font-size:11px}
            svg .grid line{stroke:#eee}svg .frame{fill:none;stroke:#9e9e9e}svg text{fill:#424242}svg text.label{fill:#212121;font-size:12px}
            polyline.line{fill:none;stroke-width:1.6;stroke-linejoin:round}polyline.dashed{stroke-dasharray:5 3}
            polygon.area{stroke:none;fill-opacity:.8}
            .marker line{stroke-width:1;stroke-dasharray:3 2}
            ul.legend{list-style:none;display:flex;flex-wrap:wrap;gap:4px 16px;padding:0;margin:2px 0 0 64px;font-size:12px}
            .sw{display:inline-block;width:14px;height:10px;margin-right:5px;vertical-align:middle}
            .sw.line{height:3px}.sw.mk{width:8px;height:8px;border-radius:50%}
            .note{color:#555;font-size:13px}
            @media print{body{max-width:none;padding:0;font-size:10pt}header,section,figure{break-inside:avoid}
            *{-webkit-print-color-adjust:exact;print-color-adjust:exact}}

            """
        return css + palette(series: series, markers: markers)
    }

    /// Extra series, markers and rules of `sweep.html` and `matrix.html` (not of `report.html`, which
    /// does not need them): knee and peak marks with captions, scatters, bar charts and their grid.
    static let sweepSeries: [(String, String)] = [
        ("achieved", "#0d47a1"), ("diagonal", "#9e9e9e"), ("p999", "#6a1b9a"), ("slo", "#424242"),
        ("pass", "#2e7d32"), ("fail", "#c62828"), ("measured", "#212121"), ("fit", "#1565c0"),
    ]
    static let sweepMarkers: [(String, String)] = [("knee", "#2e7d32"), ("peak", "#c62828")]

    static var sweepCss: String {
        """
        svg text.caption{font-size:12px;font-weight:600}.m-knee text.caption{fill:#1b5e20}.m-knee line{stroke-dasharray:6 4}.m-peak text.caption{fill:#b71c1c}
        .dots circle{stroke:#fff;stroke-width:1}
        .multiples{display:grid;grid-template-columns:repeat(auto-fill,minmax(420px,1fr));gap:4px 24px}
        svg.bars{width:100%;height:auto;display:block;font-size:11px}svg.bars rect.bar{fill:#1565c0}
        svg.bars text.value{fill:#212121;font-variant-numeric:tabular-nums}svg.bars text.missing{fill:#757575;font-style:italic}
        tr.fail td{color:#b71c1c}tr.knee td{font-weight:600;background:#f1f8e9}td.over{color:#b71c1c;font-weight:600}
        dl.fit dd{font-variant-numeric:tabular-nums}
        div.wide{overflow-x:auto}div.wide table{font-size:12px}div.wide th,div.wide td{padding:3px 5px}@media print{div.wide{overflow:visible}}

        """ + palette(series: sweepSeries, markers: sweepMarkers)
    }

    /// The colour rules of series (`s-NAME`: lines, areas, dots and legend swatches) and markers (`m-NAME`).
    static func palette(series: [(String, String)], markers: [(String, String)]) -> String {
        var css = ""
        for (name, color) in series {
            css += ".s-\(name){fill:\(color);stroke:\(color)}.sw.s-\(name){background:\(color)}"
                + ".sw.dashed.s-\(name){background:none;height:0;border-top:3px dashed \(color)}\n"
        }
        for (name, color) in markers {
            css += ".m-\(name) line{stroke:\(color)}.m-\(name) circle{fill:\(color)}.sw.m-\(name){background:\(color)}\n"
        }
        return css
    }
}
