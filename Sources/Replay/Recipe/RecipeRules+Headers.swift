import APNsCore

/// The header values a push rule reads once per event (`expiration_seconds` and `collapse_id` from fields),
/// checked as APNs would take them; a value APNs would refuse makes the event a bad line.
extension RecipeRules {
    /// Seconds after the run's start; -1 when the value is absent (no header).
    func expirationSeconds(_ source: Recipe.Source) throws -> Int {
        switch value(source, recipient: nil) {
        case .absent, .omit: return -1
        case let .int(n) where (0 ... 31_536_000).contains(n): return n
        case let v:
            throw StreamLineError(line: line, cause: .badValue(field: "expiration_seconds", why: "\(v.text ?? "a list") is not a number of seconds from 0 to 31536000"))
        }
    }

    /// `expiration_at`: the seconds from the event's recorded time to the absolute time (a time, or int seconds
    /// since 1970) it reads; 0 (now or never) when that time is not after the event; -1 when absent.
    func expirationAfterEvent(_ source: Recipe.Source) throws -> Int {
        let seconds: Int64
        switch value(source, recipient: nil) {
        case .absent, .omit: return -1
        case let .time(ms): seconds = ms.floorDiv(1000)
        case let .int(n): seconds = Int64(n)
        case let v: throw StreamLineError(line: line, cause: .badValue(field: "expiration_at", why: "\(v.text ?? "a list") is not a time"))
        }
        let span = seconds - at.floorDiv(1000)
        guard span <= 31_536_000 else {
            throw StreamLineError(line: line, cause: .badValue(field: "expiration_at", why: "\(span) seconds after the event; APNs keeps a push at most 31536000"))
        }
        return span <= 0 ? 0 : Int(span)
    }

    /// Writes the rule's collapse id for the event into ``collapseIDs``; false when a value it reads is absent
    /// (no header).
    func writeCollapseID(_ format: Recipe.HeaderText, rule: Int) throws -> Bool {
        collapseIDs[rule].removeAll(keepingCapacity: true)
        for part in format.parts {
            switch part {
            case let .literal(bytes):
                collapseIDs[rule].append(contentsOf: bytes)
            case let .value(source):
                let v = value(source, recipient: nil)
                if case .string(let s) = v {
                    collapseIDs[rule].append(contentsOf: s.utf8)
                } else if case .int(let n) = v {
                    collapseIDs[rule].appendDecimal(n)
                } else if let text = v.text {
                    collapseIDs[rule].append(contentsOf: text.utf8)
                } else {
                    return false
                }
            }
        }
        guard collapseIDs[rule].count <= 64 else {
            let shown = String(decoding: collapseIDs[rule].prefix(24), as: UTF8.self)
            throw StreamLineError(line: line, cause: .badValue(field: "collapse_id", why: "'\(shown)…' is \(collapseIDs[rule].count) bytes; APNs takes at most 64"))
        }
        return true
    }
}
