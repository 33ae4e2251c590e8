import APNsCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one NDJSON line per planned push into a reused byte buffer, flushed to a file descriptor in
/// large writes. Everything that is the same for every push (each part's push type and topic, the
/// expiration and collapse id) is encoded once, ahead; a line allocates nothing.
///
/// A push to send: `{"n","event":{"line","kind","stream"},"rule"?,"token"|"channel","reach","push_type","topic",
/// "priority","expiration_seconds"?,"collapse_id"?,"payload":{…}}`, the payload embedded as it would be
/// sent. A not-sent push: `{"n","event","rule"?,"not_sent":CAUSE,"priority"}`. `rule` names the push rule that
/// planned it when its recipe names its rules (an event with several). The token is redacted
/// (``DeviceToken/redacted(_:)``) unless `showTokens`.
public final class PlanLineWriter {
    public let path: String
    private let fd: Int32
    private let closesDescriptor: Bool
    private let showTokens: Bool
    private var buffer: [UInt8] = []
    private static let flushAt = 1 << 16
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)
    /// By ``OutgoingPush/kind``: `,"push_type":"…","topic":"…"`.
    private let kindFields: [[UInt8]]
    /// `,"kind":…,"stream":…}` of the latest line's event.
    private var kindAndStream: [UInt8] = []
    private var lastKind = ""
    private var lastStream = ""
    /// By push kind: `,"expiration_seconds":N` and `,"collapse_id":"…"` when set as constants.
    private let headerTails: [[UInt8]]
    /// By push kind: whether each push carries its own expiration and collapse id (written after the above).
    private let perPush: [(expiration: Bool, collapseID: Bool)]

    /// Opens `path` for writing (created or truncated); `-` is standard output.
    public init(path: String, config: RunConfig, recipes: [Recipe], showTokens: Bool) throws {
        self.path = path
        self.showTokens = showTokens
        if path == "-" {
            fd = STDOUT_FILENO
            closesDescriptor = false
        } else {
            let opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard opened >= 0 else { throw PlanError("--out \(path) cannot be written: \(String(cString: strerror(errno)))") }
            fd = opened
            closesDescriptor = true
        }
        var encoder = [UInt8]()
        // One entry per push kind: each part's header sets, a rule's own over the profile's.
        let kinds = config.pushKinds(overrides: recipes.map(\.headerVariants))
        kindFields = kinds.map { k in
            encoder.removeAll(keepingCapacity: true)
            Self.appendKey("push_type", to: &encoder)
            Self.appendString(k.pushType.rawValue, to: &encoder)
            Self.appendKey("topic", to: &encoder)
            Self.appendString(k.topic, to: &encoder)
            return encoder
        }
        headerTails = kinds.map { k in
            encoder.removeAll(keepingCapacity: true)
            if let seconds = k.expirationSeconds {
                Self.appendKey("expiration_seconds", to: &encoder)
                encoder.appendDecimal(seconds)
            }
            if let id = k.collapseID {
                Self.appendKey("collapse_id", to: &encoder)
                Self.appendString(id, to: &encoder)
            }
            return encoder
        }
        perPush = kinds.map { ($0.expirationPerPush, $0.collapseIDPerPush) }
        buffer.reserveCapacity(Self.flushAt + 8192)
    }

    deinit {
        if closesDescriptor { close(fd) }
    }

    /// Writes the line of the `n`th planned push: `result` is `.push` or `.notSent`.
    public func write(n: Int, origin: PushOrigin, push: OutgoingPush, result: PullResult) throws {
        buffer.append(contentsOf: #"{"n":"#.utf8)
        buffer.appendDecimal(n)
        buffer.append(contentsOf: #","event":{"line":"#.utf8)
        buffer.appendDecimal(origin.line)
        // A stream's pushes share their kind and stream strings: encoded once while they repeat.
        if origin.kind != lastKind || origin.stream != lastStream {
            lastKind = origin.kind
            lastStream = origin.stream
            kindAndStream.removeAll(keepingCapacity: true)
            Self.appendKey("kind", to: &kindAndStream)
            Self.appendString(origin.kind, to: &kindAndStream)
            Self.appendKey("stream", to: &kindAndStream)
            Self.appendString(origin.stream, to: &kindAndStream)
            kindAndStream.append(UInt8(ascii: "}"))
        }
        buffer.append(contentsOf: kindAndStream)
        if let rule = origin.rule {
            Self.appendKey("rule", to: &buffer)
            Self.appendString(rule, to: &buffer)
        }
        if case let .notSent(cause) = result {
            Self.appendKey("not_sent", to: &buffer)
            Self.appendString(cause.rawValue, to: &buffer)
            Self.appendKey("priority", to: &buffer)
            buffer.appendDecimal(push.priority.rawValue)
        } else {
            if push.channel >= 0 {
                Self.appendKey("channel", to: &buffer)
                Self.appendString(push.deviceToken, to: &buffer)
                Self.appendKey("reach", to: &buffer)
                buffer.appendDecimal(Int(push.reach))
            } else {
                Self.appendKey("token", to: &buffer)
                if showTokens { Self.appendString(push.deviceToken, to: &buffer) } else { appendRedacted(push.deviceToken) }
            }
            let kind = Int(push.kind)
            if kindFields.indices.contains(kind) { buffer.append(contentsOf: kindFields[kind]) }
            Self.appendKey("priority", to: &buffer)
            buffer.appendDecimal(push.priority.rawValue)
            if headerTails.indices.contains(kind) {
                buffer.append(contentsOf: headerTails[kind])
                if perPush[kind].expiration, push.expirationSeconds >= 0 {
                    Self.appendKey(push.expirationFromSend ? "expiration_after_send" : "expiration_seconds", to: &buffer)
                    buffer.appendDecimal(push.expirationSeconds)
                }
                if perPush[kind].collapseID, !push.collapseID.isEmpty {
                    Self.appendKey("collapse_id", to: &buffer)
                    Self.appendString(utf8: push.collapseID, to: &buffer)
                }
            }
            Self.appendKey("payload", to: &buffer)
            buffer.append(contentsOf: push.body)
        }
        buffer.append(contentsOf: "}\n".utf8)
        if buffer.count >= Self.flushAt { try flush() }
    }

    /// Writes what is buffered.
    public func flush() throws {
        var written = 0
        while written < buffer.count {
            let n = buffer.withUnsafeBytes { raw in systemWrite(fd, raw.baseAddress! + written, raw.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PlanError("writing --out \(path) failed: \(String(cString: strerror(errno)))")
            }
            written += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// ``DeviceToken/redacted(_:)`` written in place: the first 8 characters and the length.
    private func appendRedacted(_ token: String) {
        var ascii = true
        var taken = 0
        for b in token.utf8 {
            if taken == 8 { break }
            if b >= 0x80 { ascii = false; break }
            taken += 1
        }
        guard ascii else { return Self.appendString(DeviceToken.redacted(token), to: &buffer) }
        buffer.append(UInt8(ascii: "\""))
        var i = 0
        for b in token.utf8 {
            if i == taken { break }
            Self.appendEscaped(b, to: &buffer)
            i += 1
        }
        buffer.append(contentsOf: "…(".utf8)
        buffer.appendDecimal(token.utf8.count)
        buffer.append(contentsOf: ")\"".utf8)
    }

    /// `,"key":`
    @inline(__always)
    static func appendKey(_ key: StaticString, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    /// `text` as a JSON string.
    @inline(__always)
    static func appendString(_ text: String, to out: inout [UInt8]) {
        appendString(utf8: text.utf8, to: &out)
    }

    /// UTF-8 bytes (a `String`'s, or a push's own collapse id) as a JSON string.
    static func appendString<UTF8: Sequence<UInt8>>(utf8 bytes: UTF8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let copied: Bool? = bytes.withContiguousStorageIfAvailable { bytes in
            // Most text (hex tokens, topics, paths) needs no escape: copied whole.
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if copied != true {
            for b in bytes { appendEscaped(b, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func appendEscaped(_ b: UInt8, to out: inout [UInt8]) {
        switch b {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"):
            out.append(UInt8(ascii: "\\"))
            out.append(b)
        case 0..<0x20:
            out.append(contentsOf: #"\u00"#.utf8)
            out.append(hex[Int(b >> 4)])
            out.append(hex[Int(b & 0xF)])
        default:
            out.append(b)
        }
    }
}

/// write(2), named apart from ``PlanLineWriter/write(n:origin:push:result:)``.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
