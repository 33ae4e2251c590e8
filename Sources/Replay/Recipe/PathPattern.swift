/// An API path pattern such as `/api/leave-requests/:requestId/status`: literal segments, and `:name`
/// segments that capture what the logged path has there.
struct PathPattern: CustomStringConvertible, Sendable {
    enum Segment: Equatable {
        case literal(String)
        case capture(String)
    }

    let segments: [Segment]
    let description: String

    /// The capture names, in order.
    var captures: [String] { segments.compactMap { if case let .capture(n) = $0 { return n } else { return nil } } }

    /// Why `text` could never match a logged path, or nil when it can.
    static func problem(_ text: String) -> String? {
        guard text.hasPrefix("/") else { return "must start with '/'" }
        if text.contains("?") || text.contains("#") { return "has a query or fragment; a logged path is matched without one" }
        if text.contains(where: { $0 == " " || $0 == "\t" }) { return "has a space" }
        let parts = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        if text != "/", parts.contains(where: \.isEmpty) { return "has an empty segment ('//' or a trailing '/')" }
        var seen = Set<Substring>()
        for p in parts where p.hasPrefix(":") {
            let name = p.dropFirst()
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                return "capture '\(p)' must be ':' and a name of letters, digits and '_'"
            }
            guard seen.insert(name).inserted else { return "captures '\(name)' twice" }
        }
        return nil
    }

    /// - Precondition: ``problem(_:)`` is nil for `text`.
    init(_ text: String) {
        description = text
        segments = text == "/" ? [] : text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.hasPrefix(":") ? .capture(String($0.dropFirst())) : .literal(String($0))
        }
    }

    /// The captured values when `path` matches (its query, if any, ignored), else nil.
    func match(_ path: String, into captures: inout [String]) -> Bool {
        captures.removeAll(keepingCapacity: true)
        var rest = path.utf8[...]
        if let q = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { rest = rest[..<q] }
        guard rest.first == UInt8(ascii: "/") else { return false }
        rest = rest.dropFirst()
        if segments.isEmpty { return rest.isEmpty }
        for (i, segment) in segments.enumerated() {
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let part = rest[..<end]
            switch segment {
            case let .literal(l):
                guard part.elementsEqual(l.utf8) else { return false }
            case .capture:
                guard !part.isEmpty else { return false }
                captures.append(String(Substring(part)))
            }
            if i == segments.count - 1 { return end == rest.endIndex }
            guard end != rest.endIndex else { return false }
            rest = rest[rest.index(after: end)...]
        }
        return false
    }
}
