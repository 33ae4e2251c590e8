/// The frame of the sweep pages (`sweep.html`, `matrix.html`): one self-contained document with the
/// shared stylesheet inline and no script at all. Its Content-Security-Policy forbids every fetch and
/// every script, so the page works offline, prints, and cannot run anything a label smuggled in.
enum HtmlPage {
    /// A whole page: `title` is escaped here, `body` must already be HTML.
    static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HtmlEscape.text(title))</title>
        <style>\(HtmlStyle.css)\(HtmlStyle.sweepCss)</style></head>
        <body>
        \(body)</body></html>

        """
    }

    /// `<section id=…><h2>…</h2>body</section>`, the title escaped.
    static func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section id=\"\(id)\">\n<h2>\(HtmlEscape.escape(title))</h2>\n\(body)</section>\n"
    }

    /// A table: the header cells (a leading `#` makes a column numeric: right-aligned, its `#` dropped)
    /// and rows of cells already HTML, each row with an optional class. A cell starting with `<td` is
    /// taken whole, so it can carry a class of its own.
    static func table(_ header: [String], _ rows: [(cls: String?, cells: [String])]) -> String {
        let numeric = header.map { $0.hasPrefix("#") }
        var t = "<table><thead><tr>"
        for (h, n) in zip(header, numeric) {
            t += n ? "<th class=\"n\">\(HtmlEscape.escape(String(h.dropFirst())))</th>" : "<th>\(HtmlEscape.escape(h))</th>"
        }
        t += "</tr></thead><tbody>\n"
        for row in rows {
            t += row.cls.map { "<tr class=\"\($0)\">" } ?? "<tr>"
            for (i, cell) in row.cells.enumerated() {
                let n = i < numeric.count && numeric[i]
                t += cell.hasPrefix("<td") ? cell : (n ? "<td class=\"n\">\(cell)</td>" : "<td>\(cell)</td>")
            }
            t += "</tr>\n"
        }
        return t + "</tbody></table>\n"
    }
}
