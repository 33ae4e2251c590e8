/// A field reached through nested objects, e.g. `body.store_ids`: the keys of the objects on the
/// way, then the field's own key.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
    /// The keys, outermost first; never empty.
    public let components: [String]

    /// A path from its keys, outermost first (`["body", "store_ids"]`); `components` must not be empty.
    public init(_ components: [String]) {
        precondition(!components.isEmpty, "FieldPath: a path needs at least one key")
        self.components = components
    }

    /// A path written with dots (`body.store_ids`), or nil when a key would be empty (`body.`,
    /// `.x`, `a..b`, ""). Keys that contain a dot cannot be written this way.
    public init?(dotted: String) {
        let keys = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else { return nil }
        self.init(keys)
    }

    /// The field's own key (the last one).
    public var key: String { components[components.count - 1] }

    /// `body.store_ids`.
    public var description: String { components.joined(separator: ".") }
}

extension FlatJSONObject {
    /// The object that is the value of `key`, its fields indexed now; nil when the field is absent
    /// or null. Errors from the result name its fields with this path in front (`body.status`).
    ///
    /// Each call parses the nested object again: keep the result to read several of its fields.
    /// - Throws: `StreamLineError`: `wrongType` when the value is not an object; `notJSON` when the
    ///   nested object repeats a key.
    public func nested(_ key: String) throws -> FlatJSONObject? {
        try typedNested(key)
    }

    /// The object at the end of `path` (every key names an object); nil when one on the way is
    /// absent or null.
    public func nested(_ path: FieldPath) throws -> FlatJSONObject? {
        var object = self
        for key in path.components {
            guard let inner = try object.typedNested(key) else { return nil }
            object = inner
        }
        return object
    }

    /// Reads the field at `path` with `accessor` (e.g. `{ try $0.string($1) }`), called with the
    /// object that holds the field and the field's key. An object on the way that is absent is
    /// `missingField`, one that is null or not an object is `wrongType`, each named by its path.
    public func read<T>(_ path: FieldPath, _ accessor: (FlatJSONObject, String) throws -> T) throws -> T {
        var object = self
        for key in path.components.dropLast() {
            let field = try object.required(key)
            guard field.type == .object else { throw object.wrongType(key, expected: .object, found: field.type) }
            object = try object.parseNested(field, key)
        }
        return try accessor(object, path.key)
    }

    /// Reads an optional field at `path` with `accessor` (e.g. `{ try $0.optionalString($1) }`);
    /// nil when an object on the way is absent or null (one of another type is `wrongType`).
    public func readOptional<T>(_ path: FieldPath, _ accessor: (FlatJSONObject, String) throws -> T?) throws -> T? {
        var object = self
        for key in path.components.dropLast() {
            guard let inner = try object.typedNested(key) else { return nil }
            object = inner
        }
        return try accessor(object, path.key)
    }

    /// `nested(_:)` with a typed error.
    func typedNested(_ key: String) throws(StreamLineError) -> FlatJSONObject? {
        guard let field = optional(key) else { return nil }
        guard field.type == .object else { throw wrongType(key, expected: .object, found: field.type) }
        return try parseNested(field, key)
    }

    /// Indexes the fields of the object `field` (an `.object`). The parser sees the line up to the
    /// object's `}`, so byte positions in its errors are positions in the line.
    private func parseNested(_ field: Field, _ key: String) throws(StreamLineError) -> FlatJSONObject {
        let prefix = storage[storage.startIndex ..< storage.startIndex + field.valueEnd]
        let line = self.line
        let result: Result<FlatJSON.Parser.Output, StreamLineError> = prefix.withUnsafeBufferPointer { buffer in
            var parser = FlatJSON.Parser(buffer: buffer, line: line)
            parser.i = field.valueStart
            return Result { () throws(StreamLineError) in try parser.parseNestedObject() }
        }
        let output = try result.get()
        return FlatJSONObject(
            line: line, storage: prefix, start: field.valueStart, path: qualified(key),
            fields: output.fields, escapedKeys: output.escapedKeys)
    }
}
