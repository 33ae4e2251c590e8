/// Scans a JSON document once into a flat array of ``JSONNode``s, accepting exactly what
/// Foundation's `JSONDecoder` (swift-foundation's `JSONScanner`) accepts before decoding starts:
///
/// - a UTF-8 byte-order mark is skipped; whitespace is space, tab, LF and CR only;
/// - a trailing comma is allowed before `]` and `}` (`[1,]`, `{"a":1,}`), an empty element is not;
/// - containers nest at most 512 deep;
/// - a number is scanned as `-` or a digit followed by any of `0-9 . + - e E`; its grammar is checked
///   only when the number is decoded (DeviceContract's `JSONNumber`);
/// - a string ends at the first unescaped `"`; `\u` must be followed by four bytes that are not `"`;
///   escapes, control characters and UTF-8 are checked only when the string is decoded
///   (DeviceContract's `JSONString`);
/// - nothing but whitespace may follow the top-level value.
///
/// Payloads in UTF-16 or UTF-32 (which `JSONDecoder` transcodes) are reported as syntax errors. A reader
/// that wants RFC 8259's stricter grammar checks the nodes afterwards (the simulator's `PayloadShape`).
public struct JSONTape: Sendable {
    public static let maxDepth = 512

    /// The nodes of the document scanned last, in document order (the top-level value first).
    public private(set) var nodes: [JSONNode] = []

    /// How many arrays and objects the most deeply nested value of that document stands inside (0 for a
    /// document that is one number, string or literal, or an empty container).
    public private(set) var deepest = 0

    /// JSON's whitespace: space, tab, LF and CR.
    @inline(__always)
    public static func isWhitespace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// An empty tape; one kept and scanned into again reuses its storage.
    public init() {}

    /// Scans `bytes` into `nodes`, replacing what they held and keeping their storage. After a syntax
    /// error `nodes` holds what was scanned before it.
    public mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) {
        var scanner = JSONScanner(bytes: bytes)
        swap(&scanner.nodes, &nodes)
        defer {
            swap(&scanner.nodes, &nodes)
            deepest = scanner.deepest
        }
        scanner.nodes.removeAll(keepingCapacity: true)
        scanner.nodes.reserveCapacity(max(8, bytes.count / 8))
        try scanner.scanDocument()
    }

    /// `bytes` scanned into a tape of their own.
    public static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<[JSONNode], JSONSyntaxError> {
        var tape = JSONTape()
        do throws(JSONSyntaxError) {
            try tape.scan(bytes)
            return .success(tape.nodes)
        } catch {
            return .failure(error)
        }
    }
}
