/// "Did you mean": the known name closest to a mistyped one, as the command line suggests a flag.
public enum NameSuggestion {
    /// The name in `known` within two edits (a letter added, dropped, changed, or two neighbours swapped)
    /// of `name`, the closest first; nil when none is that close.
    public static func closest(to name: String, among known: [String]) -> String? {
        let scored = known.map { ($0, distance(Array(name.lowercased()), Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= min(2, max(1, name.count / 3)) else { return nil }
        return best.0
    }

    /// `; did you mean 'NAME'?` for a suggestion, "" without one.
    public static func phrase(for name: String, among known: [String]) -> String {
        closest(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
