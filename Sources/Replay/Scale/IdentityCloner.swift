import APNsCore

/// How one identity value (an entity key, a group key, a device token, an id in a path) becomes its clone in
/// copy `c` of a scaled recording; copy 0 is the recorded value itself.
///
/// Each rule reads only the value, the copy and the seed, so a value gets the same clone wherever a line holds
/// it, and so does a key written as a number in one place and as text in another (a request id in a response
/// body and in a later call's path):
/// - an integer, or text of 1–18 digits without a leading zero: `v + c × stride` (`v − c × stride` below 0),
///   `stride` a power of ten above every such id of the recording, so copy `c`'s ids lie in
///   `[c × stride, (c + 1) × stride)`: no clone equals a recorded id or another copy's; text stays text;
/// - text of 16 or more digits: each digit shifted (mod 10) by a keystream of the seed and the copy; still
///   digits, same length;
/// - text of hex digits and `-` with 16 or more hex digits (device tokens, UUIDs): each hex digit XORed with
///   that keystream, `-` kept in place, letters in the value's case: a token stays a token of the same length,
///   a UUID a UUID. Within a copy this is a bijection, so two recorded values never share a clone; a clone
///   equals a value of another copy or of the recording only if 64 or more keystream bits happen to match;
/// - other text: the value, the separator and the copy (`store-a~3`), the separator a character that no such
///   recorded value holds, so these clones never meet either;
/// - empty text stays empty (an empty token is an absent one).
///
/// In every rule the keystream's first digit is never zero, so no clone equals its own original.
public struct IdentityCloner: Sendable, Equatable {
    public let seed: UInt64
    /// The power of ten the integer rule steps by.
    public let stride: Int
    /// What the text rule puts between a value and its copy number.
    public let separator: Character

    /// The separators the text rule may use, in order of preference: characters a URL path keeps as they are.
    public static let separators: [Character] = ["~", "!", "*", "+"]

    public init(seed: UInt64, stride: Int, separator: Character) {
        self.seed = seed
        self.stride = stride
        self.separator = separator
    }

    /// How a text value is cloned.
    enum TextRule: Equatable {
        case integer(Int)
        case digits
        case hex
        case suffix
        case empty
    }

    static func rule(_ s: String) -> TextRule {
        let u = s.utf8
        guard let first = u.first else { return .empty }
        let allDigits = u.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        if allDigits, u.count <= 18, u.count == 1 || first != 0x30, let n = Int(s) { return .integer(n) }
        if allDigits, u.count >= 16 { return .digits }
        var hexDigits = 0
        for b in u {
            if FlatJSON.hexValue(b) != nil { hexDigits += 1 } else if b != UInt8(ascii: "-") { return .suffix }
        }
        return hexDigits >= 16 ? .hex : .suffix
    }

    /// The clone of an integer id in copy `c`.
    public func int(_ v: Int, copy c: Int) -> Int {
        guard c > 0 else { return v }
        return v < 0 ? v - c * stride : v + c * stride
    }

    /// The clone of a text id in copy `c`.
    public func text(_ s: String, copy c: Int) -> String {
        guard c > 0 else { return s }
        switch Self.rule(s) {
        case .empty: return s
        case let .integer(n): return String(int(n, copy: c))
        case .suffix: return s + String(separator) + String(c)
        case .digits:
            var keys = Keystream(seed: seed, copy: c)
            let out = s.utf8.map { b -> UInt8 in
                let k = keys.next() % 10
                return 0x30 + UInt8((Int(b - 0x30) + Int(k)) % 10)
            }
            return String(decoding: out, as: UTF8.self)
        case .hex:
            let upper = s.utf8.contains { $0 >= 0x41 && $0 <= 0x46 } && !s.utf8.contains { $0 >= 0x61 && $0 <= 0x66 }
            let digits = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
            var keys = Keystream(seed: seed, copy: c)
            let out = s.utf8.map { b -> UInt8 in
                guard let v = FlatJSON.hexValue(b) else { return b }
                return digits[Int(UInt8(v) ^ keys.next())]
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// Per copy, a stream of 4-bit keys drawn from SplitMix64; the first is never 0 (nor 0 mod 10).
    struct Keystream {
        private var rng: SplitMix64
        private var word: UInt64 = 0
        private var left = 0
        private var first = true

        init(seed: UInt64, copy: Int) {
            rng = SplitMix64(seed: SplitMix64.mix(seed) ^ SplitMix64.mix(UInt64(copy) &* SplitMix64.increment))
        }

        mutating func next() -> UInt8 {
            if left == 0 {
                word = rng.next()
                left = 16
            }
            var k = UInt8(word & 0xF)
            word >>= 4
            left -= 1
            if first {
                first = false
                if k % 10 == 0 { k += 1 }
            }
            return k
        }
    }
}

/// What the cloning rules need to know of a whole recording before its first clone is written: the largest
/// integer id (the stride) and which separators its other text ids hold.
public struct IdentityRange: Sendable, Equatable {
    /// The largest magnitude of an integer id (JSON or text).
    public private(set) var largestInteger = 0
    /// The separators (``IdentityCloner/separators``) some text id holds.
    public private(set) var separatorsUsed: Set<Character> = []

    public init() {}

    mutating func add(_ v: Int) {
        largestInteger = max(largestInteger, v == Int.min ? Int.max : abs(v))
    }

    mutating func add(_ s: String) {
        switch IdentityCloner.rule(s) {
        case let .integer(n): add(n)
        case .suffix: for c in IdentityCloner.separators where s.contains(c) { separatorsUsed.insert(c) }
        case .digits, .hex, .empty: break
        }
    }

    /// The smallest power of ten above ``largestInteger`` (at least 10).
    public var stride: Int? {
        var s = 10
        while s <= largestInteger {
            let (next, overflow) = s.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            s = next
        }
        return s
    }

    /// The cloner for `factor` copies, or why there is none.
    public func cloner(factor: Int, seed: UInt64) -> Result<IdentityCloner, IdentityRangeError> {
        guard let stride, (factor - 1).multipliedReportingOverflow(by: stride).overflow == false,
              largestInteger <= Int.max - (factor - 1) * stride
        else { return .failure(.integersOverflow(largest: largestInteger, factor: factor)) }
        guard let separator = IdentityCloner.separators.first(where: { !separatorsUsed.contains($0) }) else {
            return .failure(.noSeparator)
        }
        return .success(IdentityCloner(seed: seed, stride: stride, separator: separator))
    }
}

/// Why a recording's ids cannot be cloned.
public enum IdentityRangeError: Error, Equatable, CustomStringConvertible {
    case integersOverflow(largest: Int, factor: Int)
    case noSeparator

    public var description: String {
        switch self {
        case let .integersOverflow(largest, factor):
            return "a factor of \(factor) would take integer ids (up to \(largest)) past 64 bits"
        case .noSeparator:
            return "every separator a text id's clone could use (\(IdentityCloner.separators.map(String.init).joined(separator: " "))) "
                + "appears in some recorded id"
        }
    }
}
