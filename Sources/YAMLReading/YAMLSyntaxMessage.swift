import Yams

/// A YAML syntax error said for a person: at the line it is on, with the lines around it (never the whole
/// file), a key given twice at the second occurrence, and a tab in the indentation called a tab.
enum YAMLSyntaxMessage {
    /// The line to name and the message (after the file and line: `is not valid YAML: …`).
    static func explain(_ error: Error, yaml: String) -> (line: Int?, message: String) {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let e = error as? YamlError else { return (nil, "is not valid YAML: \(error)") }
        switch e {
        case let .duplicatedKeysInMapping(duplicates, context):
            let key = duplicates.first ?? "?"
            let first = context.mark.line
            let second = secondOccurrence(of: key, after: context.mark, in: lines) ?? first
            return (second, "is not valid YAML: key '\(key)' is given twice in one mapping (first on line \(first)): give it once\n" + around(second, lines))
        case let .scanner(_, problem, mark, _), let .parser(_, problem, mark, _), let .composer(_, problem, mark, _):
            if let tab = tabLine(near: mark.line, lines) {
                return (tab, "is not valid YAML: a tab character indents this line; YAML indents with spaces only\n" + around(tab, lines))
            }
            return (mark.line, "is not valid YAML: \(problem) (column \(mark.column))\n" + around(mark.line, lines))
        default:
            return (nil, "is not valid YAML: \(e)")
        }
    }

    /// The line (1-based) of `key`'s next occurrence at the first's column, before the mapping ends (a line
    /// indented less); for a flow mapping, the first's own line.
    static func secondOccurrence(of key: String, after mark: Mark, in lines: [String]) -> Int? {
        let column = mark.column - 1
        let firstLine = mark.line - 1
        guard lines.indices.contains(firstLine) else { return nil }
        let rest = lines[firstLine].dropFirst(column + key.count)
        if rest.contains("\(key):") || rest.contains("\"\(key)\":") { return mark.line }
        for i in (firstLine + 1)..<lines.count {
            let text = lines[i]
            let trimmed = text.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let indent = text.count - trimmed.count
            if indent < column { return nil }
            if indent == column, trimmed.hasPrefix("\(key):") || trimmed.hasPrefix("\"\(key)\":") || trimmed.hasPrefix("'\(key)':") { return i + 1 }
        }
        return nil
    }

    /// The first line from `line - 1` to `line` (YAML reports a tab at the line before or at the one it
    /// breaks) whose indentation holds a tab.
    static func tabLine(near line: Int, _ lines: [String]) -> Int? {
        for n in [line, line - 1, line + 1] where lines.indices.contains(n - 1) {
            if lines[n - 1].prefix(while: { $0 == " " || $0 == "\t" }).contains("\t") { return n }
        }
        return nil
    }

    /// The line and the one before and after it, numbered: `  7 | connections: 4`.
    /// A line past the text's last (the YAML parser counts a lone `\r` as a line break; `lines` were split
    /// on `\n`) shows the last lines.
    static func around(_ line: Int, _ lines: [String]) -> String {
        guard !lines.isEmpty else { return "" }
        let line = min(max(line, 1), lines.count)
        let range = max(1, line - 1)...min(lines.count, line + 1)
        let width = String(range.upperBound).count
        return range.map { n in
            let number = String(n)
            return String(repeating: " ", count: width - number.count) + number + (n == line ? " > " : " | ") + lines[n - 1]
        }.joined(separator: "\n")
    }
}
