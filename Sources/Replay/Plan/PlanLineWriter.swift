import APNsCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one NDJSON line per planned push into a reused byte buffer, flushed to a file descriptor in
/// large writes. Everything that is the same for every push (each kind's constant headers,
/// ``APNsHeader/constant(of:)``) is encoded once, ahead; a line allocates nothing.
///
/// A push to send: `{"n","event":{"line","kind","stream"},"rule"?,"token"|"channel","reach","push_type","topic",
/// "priority", the kind's other constant headers (`"expiration_seconds"`, `"collapse_id"`), then the push's own
/// (``APNsHeaders/perPush``, by slot), "payload":{…}}`: each header under its row's key, the payload embedded as it would be
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
    /// By ``OutgoingPush/kind``: the rows carried by kind, `,"push_type":"…","topic":"…"`.
    private let kindFields: [[UInt8]]
    /// `,"kind":…,"stream":…}` of the latest line's event.
    private var kindAndStream: [UInt8] = []
    private var lastKind = ""
    private var lastStream = ""
    /// By push kind: the constants of the rows a push may carry itself (`,"expiration_seconds":N`), where set.
    private let headerTails: [[UInt8]]
    /// By push kind: the headers each push carries itself (written after the above).
    private let perPush: [HeaderSlots]
    /// By slot: `,"key":` of the row a push carries there, how its value is written, and for seconds counted from
    /// the send the key it is written under then.
    private let ownKeys: [(key: [UInt8], seconds: Bool, fromSendKey: [UInt8])?]

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
        // One entry per push kind: each part's recipe constants over the run's.
        let kinds = config.pushKinds(recipes.map(\.pushKinds))
        func constants(_ k: PushKind, lead: Bool) -> [UInt8] {
            encoder.removeAll(keepingCapacity: true)
            for row in APNsHeaders.all where (row.carrier == .kind) == lead && row.carrier != .priority {
                guard let value = k.headers.sent(row) else { continue }
                Self.appendKey(utf8: Array(row.key.utf8), to: &encoder)
                switch value {
                case let .text(t): Self.appendString(t, to: &encoder)
                case let .number(n): encoder.appendDecimal(n)
                }
            }
            return encoder
        }
        kindFields = kinds.map { constants($0, lead: true) }
        headerTails = kinds.map { constants($0, lead: false) }
        perPush = kinds.map(\.headers.perPush)
        ownKeys = (0 ..< PushHeaderValues.capacity).map { slot in
            APNsHeaders.perPush.first { $0.slot == slot }.map { row in
                var seconds = false
                if case .seconds = row.value { seconds = true }
                return (Self.key(row.planKey(fromSend: false)), seconds, Self.key(row.planKey(fromSend: true)))
            }
        }
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
                if !perPush[kind].isEmpty { appendOwnHeaders(push, perPush[kind]) }
            }
            Self.appendKey("payload", to: &buffer)
            buffer.append(contentsOf: push.body)
        }
        buffer.append(contentsOf: "}\n".utf8)
        if buffer.count >= Self.flushAt { try flush() }
    }

    /// The values `push` carries itself, of the headers in `slots`, in slot order; a header without a value is left out.
    private func appendOwnHeaders(_ push: OutgoingPush, _ slots: HeaderSlots) {
        for slot in 0 ..< PushHeaderValues.capacity where slots.contains(slot) {
            guard let own = ownKeys[slot] else { continue }
            let value = push.headers[slot]
            if own.seconds {
                guard value.seconds >= 0 else { continue }
                buffer.append(contentsOf: value.fromSend ? own.fromSendKey : own.key)
                buffer.appendDecimal(value.seconds)
            } else if !value.text.isEmpty {
                buffer.append(contentsOf: own.key)
                Self.appendString(utf8: value.text, to: &buffer)
            }
        }
    }

    /// `,"key":` as bytes.
    private static func key(_ name: String) -> [UInt8] {
        var out: [UInt8] = []
        appendKey(utf8: Array(name.utf8), to: &out)
        return out
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

    /// `,"key":` for a key known at run time.
    static func appendKey(utf8 key: [UInt8], to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        appendString(utf8: key, to: &out)
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
