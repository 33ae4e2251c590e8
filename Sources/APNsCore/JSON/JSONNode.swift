/// One JSON value in a ``JSONTape``. Object members follow their object as key, value, key, value…;
/// array elements follow their array; `next` skips a whole subtree.
public struct JSONNode: Sendable {
    public enum Kind: UInt8, Sendable {
        case object, array, string, number, `true`, `false`, null
    }

    public let kind: Kind
    /// For a string: no backslash and no control character (JSONDecoder's fast path).
    public internal(set) var isSimple = true
    /// For a string: every byte is ASCII.
    public internal(set) var isASCII = true
    /// String: first byte after the opening quote. Number: its first byte. Others: the first byte.
    public let start: Int
    /// String: the closing quote. Number and literals: one past the last byte. Containers: one past
    /// the closing bracket.
    public internal(set) var end: Int
    /// Object: members. Array: elements.
    public internal(set) var count = 0
    /// Index of the node after this value and everything inside it.
    public internal(set) var next = 0

    init(kind: Kind, start: Int, end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
    }
}

/// A syntax error: where, and what.
public struct JSONSyntaxError: Error, Sendable {
    public let offset: Int
    public let message: String
}
