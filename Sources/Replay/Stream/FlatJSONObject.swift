/// One parsed JSON object of a line: its fields, read through typed accessors. The line's own
/// object is made by `FlatJSON.parse`; an object nested in it by `nested(_:)`, on demand.
///
/// It keeps the line's bytes and a table of field positions; strings are decoded when asked for.
/// Every accessor throws a `StreamLineError` carrying this line's number: `missingField` when a
/// required field is absent, `wrongType` when it has another JSON type (null included),
/// `badValue` when an integer does not fit. Errors name a nested object's field by its whole
/// path, e.g. `body.status` or `body.store_ids[2]`.
///
/// Optional accessors (`optionalString`, ...) return nil when the field is absent *or* null, and
/// still throw `wrongType` for any other type.
public struct FlatJSONObject: Sendable, CustomStringConvertible {
    /// The line number (1-based) used in errors.
    public let line: Int
    /// The path of this object within the line (`body`, `body.meta`), "" for the line's own object.
    public var path: String { rare?.path ?? "" }
    /// The line's bytes up to the end of this object; every offset below is from its `startIndex`,
    /// so byte positions in errors are positions in the line.
    let storage: ArraySlice<UInt8>
    /// Offset of this object's text in `storage` (0 for the line's own object).
    var start: Int { rare?.start ?? 0 }
    /// What most lines do not need: decoded keys that had escapes, and where a nested object sits.
    /// nil for a line's own object without escaped keys, so a record stays as small as a plain
    /// field table (a record is copied several times on its way to the workload; one more word
    /// in it measurably slows the reader).
    let rare: Rare?

    final class Rare: Sendable {
        /// Decoded keys, indexed by `Field.escapedKey`.
        let escapedKeys: [String]
        let path: String
        let start: Int

        init(escapedKeys: [String], path: String, start: Int) {
            self.escapedKeys = escapedKeys
            self.path = path
            self.start = start
        }
    }

    /// This object's bytes as parsed: the whole line for the line's own object, from `{` to `}`
    /// for a nested one.
    public var bytes: ArraySlice<UInt8> { storage[(storage.startIndex + start)...] }

    /// Where one field is. Offsets are 0-based from `storage.startIndex`.
    struct Field: Sendable {
        /// The key's raw content (between its quotes).
        var keyStart: Int
        var keyEnd: Int
        /// Index of the decoded key in `escapedKeys` if the key has escapes, else -1.
        var escapedKey: Int
        var type: FlatJSON.ValueType
        /// For strings the content between the quotes; for other types the whole token.
        var valueStart: Int
        var valueEnd: Int
        /// A string value with backslash escapes (needs decoding).
        var hasEscapes: Bool
        /// The value of an `.integer` that fits in Int64.
        var intValue: Int64
        /// An `.integer` that does not fit in Int64.
        var overflow: Bool
    }

    let fields: [Field]

    init(line: Int, bytes: ArraySlice<UInt8>, fields: [Field], escapedKeys: [String]) {
        self.init(line: line, storage: bytes, start: 0, path: "", fields: fields, escapedKeys: escapedKeys)
    }

    init(line: Int, storage: ArraySlice<UInt8>, start: Int, path: String, fields: [Field], escapedKeys: [String]) {
        self.line = line
        self.storage = storage
        self.rare = escapedKeys.isEmpty && path.isEmpty && start == 0
            ? nil : Rare(escapedKeys: escapedKeys, path: path, start: start)
        self.fields = fields
    }

    /// The line as text.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The number of top-level fields.
    public var count: Int { fields.count }

    /// The top-level keys, in the order of the line.
    public var keys: [String] {
        storage.withUnsafeBufferPointer { p in
            fields.map { field in
                field.escapedKey >= 0
                    ? rare!.escapedKeys[field.escapedKey]
                    : FlatJSON.decodeString(p, .init(start: field.keyStart, end: field.keyEnd, hasEscapes: false))
            }
        }
    }

    /// Whether the line has the field (with any value, null included).
    public func has(_ key: String) -> Bool { index(of: key) != nil }

    /// The JSON type of the field's value, or nil if the field is absent.
    public func valueType(_ key: String) -> FlatJSON.ValueType? {
        index(of: key).map { fields[$0].type }
    }

    /// A `StreamLineError` for this line (for checks made by the caller, e.g. `.unknownKind`).
    public func error(_ cause: StreamLineError.Cause) -> StreamLineError {
        StreamLineError(line: line, cause: cause)
    }

    // MARK: Strings

    /// The field's string value, decoded.
    public func string(_ key: String) throws -> String {
        try typedString(key)
    }

    /// `string(_:)` with a typed error (the public API throws untyped errors: see `StreamError`).
    func typedString(_ key: String) throws(StreamLineError) -> String {
        let field = try required(key)
        guard field.type == .string else { throw wrongType(key, expected: .string, found: field.type) }
        return decode(field)
    }

    /// The field's string value; nil if the field is absent or null.
    public func optionalString(_ key: String) throws -> String? {
        guard let field = optional(key) else { return nil }
        guard field.type == .string else { throw wrongType(key, expected: .string, found: field.type) }
        return decode(field)
    }

    // MARK: Numbers

    /// The field's integer value (a JSON number without fraction or exponent).
    public func int(_ key: String) throws -> Int {
        try integer(try required(key), key)
    }

    /// The field's integer value; nil if the field is absent or null.
    public func optionalInt(_ key: String) throws -> Int? {
        guard let field = optional(key) else { return nil }
        return try integer(field, key)
    }

    /// The field's numeric value (an integer or a number with fraction or exponent).
    public func double(_ key: String) throws -> Double {
        try floatingPoint(try required(key), key)
    }

    /// The field's numeric value; nil if the field is absent or null.
    public func optionalDouble(_ key: String) throws -> Double? {
        guard let field = optional(key) else { return nil }
        return try floatingPoint(field, key)
    }

    // MARK: Booleans

    /// The field's boolean value.
    public func bool(_ key: String) throws -> Bool {
        try boolean(try required(key), key)
    }

    /// The field's boolean value; nil if the field is absent or null.
    public func optionalBool(_ key: String) throws -> Bool? {
        guard let field = optional(key) else { return nil }
        return try boolean(field, key)
    }

    // MARK: Arrays

    /// The field's array of integers. A wrong element is reported as field `key[index]`
    /// (0-based), e.g. `field 'store_ids[2]' should be an integer, found a string`.
    public func intArray(_ key: String) throws -> [Int] {
        try integers(try required(key), key)
    }

    /// The field's array of integers; nil if the field is absent or null.
    public func optionalIntArray(_ key: String) throws -> [Int]? {
        guard let field = optional(key) else { return nil }
        return try integers(field, key)
    }

    /// The field's array of strings, decoded. A wrong element is reported as field `key[index]`.
    public func stringArray(_ key: String) throws -> [String] {
        try strings(try required(key), key)
    }

    /// The field's array of strings; nil if the field is absent or null.
    public func optionalStringArray(_ key: String) throws -> [String]? {
        guard let field = optional(key) else { return nil }
        return try strings(field, key)
    }

    // MARK: - Internals

    /// Calls `body` with the raw bytes of a string field that has no escapes (nil otherwise):
    /// lets the stream reader parse `at` without building a String.
    func withRawString<R>(_ key: String, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
        guard let index = index(of: key) else { return body(nil) }
        let field = fields[index]
        guard field.type == .string, !field.hasEscapes else { return body(nil) }
        return storage.withUnsafeBufferPointer { p in
            body(UnsafeBufferPointer(rebasing: p[field.valueStart ..< field.valueEnd]))
        }
    }

    /// The raw text of a field's value (for strings, between the quotes, escapes undecoded).
    func rawText(_ field: Field) -> String {
        String(decoding: storage[storage.startIndex + field.valueStart ..< storage.startIndex + field.valueEnd], as: UTF8.self)
    }

    /// Calls `body` with the raw bytes of a field's value (see `rawText`).
    func withRawValue<R>(_ field: Field, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        storage.withUnsafeBufferPointer { p in body(UnsafeBufferPointer(rebasing: p[field.valueStart ..< field.valueEnd])) }
    }

    /// The index of the field named `key`: a linear scan comparing bytes (lines have few fields).
    func index(of key: String) -> Int? {
        var key = key
        return key.withUTF8 { wanted in
            storage.withUnsafeBufferPointer { p in
                for index in fields.indices {
                    let field = fields[index]
                    if field.escapedKey >= 0 {
                        if rare!.escapedKeys[field.escapedKey].utf8.elementsEqual(wanted) { return index }
                        continue
                    }
                    guard field.keyEnd - field.keyStart == wanted.count else { continue }
                    var k = 0
                    while k < wanted.count && p[field.keyStart + k] == wanted[k] { k += 1 }
                    if k == wanted.count { return index }
                }
                return nil
            }
        }
    }

    /// `key` as errors name it: with this object's path in front (`body.status`).
    func qualified(_ key: String) -> String {
        path.isEmpty ? key : path + "." + key
    }

    func required(_ key: String) throws(StreamLineError) -> Field {
        guard let index = index(of: key) else { throw error(.missingField(qualified(key))) }
        return fields[index]
    }

    /// The field, or nil if it is absent or null.
    func optional(_ key: String) -> Field? {
        guard let index = index(of: key), fields[index].type != .null else { return nil }
        return fields[index]
    }

    /// `wrongType` for the field `name` of this object (qualified here).
    func wrongType(_ name: String, expected: FlatJSON.ValueType, found: FlatJSON.ValueType) -> StreamLineError {
        error(.wrongType(field: qualified(name), expected: expected, found: found))
    }

    private func decode(_ field: Field) -> String {
        storage.withUnsafeBufferPointer { p in
            FlatJSON.decodeString(p, .init(start: field.valueStart, end: field.valueEnd, hasEscapes: field.hasEscapes))
        }
    }

    private func integer(_ field: Field, _ name: String) throws(StreamLineError) -> Int {
        guard field.type == .integer else { throw wrongType(name, expected: .integer, found: field.type) }
        guard !field.overflow, let value = Int(exactly: field.intValue) else {
            throw error(.badValue(field: qualified(name), why: "integer out of range"))
        }
        return value
    }

    private func floatingPoint(_ field: Field, _ name: String) throws(StreamLineError) -> Double {
        guard field.type == .integer || field.type == .number else {
            throw wrongType(name, expected: .number, found: field.type)
        }
        if field.type == .integer && !field.overflow { return Double(field.intValue) }
        let text = rawText(field)
        guard let value = Double(text), value.isFinite else {
            throw error(.badValue(field: qualified(name), why: "number out of range"))
        }
        return value
    }

    private func boolean(_ field: Field, _ name: String) throws(StreamLineError) -> Bool {
        guard field.type == .boolean else { throw wrongType(name, expected: .boolean, found: field.type) }
        return storage[storage.startIndex + field.valueStart] == UInt8(ascii: "t")
    }

    /// Why reading an array element stopped; turned into a `StreamLineError` by the caller (so
    /// that the element name `key[index]` is only built on failure).
    private enum ElementProblem {
        case wrongType(index: Int, expected: FlatJSON.ValueType, found: FlatJSON.ValueType)
        case outOfRange(index: Int)
        case malformed(FlatJSON.ScanError)
    }

    private func error(_ problem: ElementProblem, _ name: String) -> StreamLineError {
        switch problem {
        case let .wrongType(index, expected, found):
            return wrongType("\(name)[\(index)]", expected: expected, found: found)
        case let .outOfRange(index):
            return error(.badValue(field: qualified("\(name)[\(index)]"), why: "integer out of range"))
        case let .malformed(scanError):
            return error(.notJSON(scanError.detail))
        }
    }

    /// Walks the elements of an array field (validated when parsing): calls `element` with the
    /// offset of each element's first byte and its index; `element` steps over the element, or
    /// returns a problem to stop.
    private func forEachElement(
        _ field: Field,
        _ p: UnsafeBufferPointer<UInt8>,
        _ element: (inout Int, Int) -> ElementProblem?
    ) -> ElementProblem? {
        let end = field.valueEnd - 1  // the `]`
        var i = field.valueStart + 1
        var index = 0
        while true {
            while i < end && FlatJSON.isWhitespace(p[i]) { i += 1 }
            guard i < end else { return nil }
            let before = i
            if let problem = element(&i, index) { return problem }
            while i < end && FlatJSON.isWhitespace(p[i]) { i += 1 }
            guard i < end, p[i] == UInt8(ascii: ","), i > before else { return nil }
            i += 1
            index += 1
        }
    }

    private func integers(_ field: Field, _ name: String) throws(StreamLineError) -> [Int] {
        guard field.type == .array else { throw wrongType(name, expected: .array, found: field.type) }
        var values: [Int] = []
        // Each element takes at least 2 bytes ("1,"): one allocation, no regrowth.
        values.reserveCapacity(min((field.valueEnd - field.valueStart) / 2, 4096))
        let problem: ElementProblem? = storage.withUnsafeBufferPointer { p in
            forEachElement(field, p) { i, index in
                let type = FlatJSON.valueType(startingWith: p[i]) ?? .null
                guard type == .integer else { return .wrongType(index: index, expected: .integer, found: type) }
                let number: FlatJSON.NumberToken
                do throws(FlatJSON.ScanError) {
                    number = try FlatJSON.scanNumber(p, &i, limit: field.valueEnd)
                } catch {
                    return .malformed(error)
                }
                guard number.isInteger else { return .wrongType(index: index, expected: .integer, found: .number) }
                guard !number.overflow, let value = Int(exactly: number.value) else { return .outOfRange(index: index) }
                values.append(value)
                return nil
            }
        }
        if let problem { throw error(problem, name) }
        return values
    }

    private func strings(_ field: Field, _ name: String) throws(StreamLineError) -> [String] {
        guard field.type == .array else { throw wrongType(name, expected: .array, found: field.type) }
        var values: [String] = []
        let problem: ElementProblem? = storage.withUnsafeBufferPointer { p in
            forEachElement(field, p) { i, index in
                let type = FlatJSON.valueType(startingWith: p[i]) ?? .null
                guard type == .string else { return .wrongType(index: index, expected: .string, found: type) }
                do throws(FlatJSON.ScanError) {
                    let token = try FlatJSON.scanString(p, &i, limit: field.valueEnd)
                    values.append(FlatJSON.decodeString(p, token))
                } catch {
                    return .malformed(error)
                }
                return nil
            }
        }
        if let problem { throw error(problem, name) }
        return values
    }
}
