extension FlatJSONObject {
    /// The object at a top-level key, parsed (nil when absent or null).
    func nestedObject(_ key: String, shownAs: String) throws(StreamLineError) -> FlatJSONObject? {
        guard let i = index(of: key) else { return nil }
        let field = fields[i]
        if field.type == .null { return nil }
        guard field.type == .object else {
            throw StreamLineError(line: line, cause: .wrongType(field: shownAs, expected: .object, found: field.type))
        }
        let start = bytes.startIndex
        return try FlatJSON.parseLine(bytes[(start + field.valueStart) ..< (start + field.valueEnd)], line: line)
    }
}

extension StreamLineError.Cause {
    /// The same cause, naming `field` by its whole path.
    func renamingField(_ field: String, to path: String) -> StreamLineError.Cause {
        func renamed(_ f: String) -> String { f.hasPrefix(field) ? path + f.dropFirst(field.count) : f }
        switch self {
        case let .missingField(f): return .missingField(renamed(f))
        case let .wrongType(f, expected, found): return .wrongType(field: renamed(f), expected: expected, found: found)
        case let .badValue(f, why): return .badValue(field: renamed(f), why: why)
        case let .badTimestamp(f, value): return .badTimestamp(field: renamed(f), value: value)
        default: return self
        }
    }
}
