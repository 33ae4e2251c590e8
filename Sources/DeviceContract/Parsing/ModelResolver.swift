/// Turns a ``DeclarationTree`` into an ``ActivityModel`` by applying the rules of synthesized
/// `Decodable` (Swift 5.x and 6.x):
///
/// - Only stored instance properties are decoded. `static`, computed and `lazy` properties are not.
/// - A `let` with an initial value (`let x = 5`, `let x: Int = 5`) is not decoded; the compiler warns.
/// - A `var` with an initial value is decoded, and its key is still required: a missing key throws
///   `keyNotFound`, the initial value is no fallback. Only an optional type (`T?`, `T!`,
///   `Optional<T>`) is decoded with `decodeIfPresent`, so a missing key or `null` gives `nil`.
/// - With a nested `enum CodingKeys: …, CodingKey`, the keys are the cases' string values (the raw
///   value for a `String` enum, else the case name) and properties are decoded in the cases' order.
///   A property without a case is not decoded and must have an initial value (a `var` of type `T?` or
///   `T!` has an implicit `nil` one; `Optional<T>` and any `let` do not). A case that names no stored
///   property is a compile error.
/// - A raw-value enum decodes its raw value and fails for any value none of its cases has. An enum
///   without a raw type is refused: its synthesized form (keyed by case name) is outside the subset.
/// - A struct used by a decoded property must declare `Codable` or `Decodable` (here or in an
///   extension in the same file); `ActivityAttributes` implies it.
/// - A struct may contain itself only through an array or a dictionary.
///
/// Names resolve like Swift's lexical lookup: nested types of the enclosing types, innermost first,
/// then the file's top-level types, then the standard types (`String`, `Bool`, `Int`, `Int8` … `UInt64`,
/// `Double`, `Float`, `TimeInterval`, `CGFloat`, `Date`, `URL`, `UUID`, optionally qualified by `Swift.`
/// or `Foundation.`). Any other name is an error.
struct ModelResolver {
    private var tree: DeclarationTree
    private let file: String
    private var objects: [ObjectShape] = []
    private var enums: [EnumShape] = []
    private var objectIndex: [Int: Int] = [:]
    private var enumIndex: [Int: Int] = [:]
    /// Structs being built, with the collection depth at which each was entered.
    private var building: [Int: Int] = [:]
    private var collectionDepth = 0

    private static let builtins: [String: ValueShape] = {
        var table: [String: ValueShape] = [
            "String": .string, "Bool": .bool, "Double": .double, "Float": .float, "TimeInterval": .double,
            "CGFloat": .double, "Date": .date, "URL": .url, "UUID": .uuid,
        ]
        for kind in IntegerKind.allCases { table[kind.rawValue] = .integer(kind) }
        return table
    }()

    private static let knownUnsupported: [String: String] = [
        "Set": "Set", "Data": "Data (base64 strings)", "Decimal": "Decimal", "Character": "Character",
        "Float16": "Float16", "Float80": "Float80", "Int128": "Int128", "UInt128": "UInt128", "Any": "Any",
        "AnyObject": "AnyObject", "AnyHashable": "AnyHashable", "Substring": "Substring", "Result": "Result",
    ]

    init(tree: DeclarationTree, file: String) {
        self.tree = tree
        self.file = file
    }

    mutating func resolve(attributesType requested: String?) throws(ModelError) -> ActivityModel {
        try mergeExtensions()
        try checkDuplicateNames()
        let root = try findRoot(requested)
        let rootDecl = tree.types[root]
        guard let contentState = rootDecl.nested.first(where: { tree.types[$0].name == "ContentState" }) else {
            throw error(rootDecl.line, "\(rootDecl.name) has no nested ContentState struct")
        }
        guard tree.types[contentState].kind == .structure else {
            throw error(tree.types[contentState].line, "ContentState must be a struct")
        }
        guard isDecodable(contentState) else {
            throw error(tree.types[contentState].line, "ContentState must declare Codable (ActivityKit requires Codable & Hashable)")
        }
        let attributesObject = try buildObject(root)
        let contentStateObject = try buildObject(contentState)
        return ActivityModel(attributesTypeName: qualifiedName(root), objects: objects, enums: enums,
                             attributesObject: attributesObject, contentStateObject: contentStateObject)
    }

    // MARK: Declarations

    private mutating func mergeExtensions() throws(ModelError) {
        var pending = Array(tree.extensions.indices)
        var progress = true
        while progress && !pending.isEmpty {
            progress = false
            for (slot, index) in pending.enumerated().reversed() {
                let ext = tree.extensions[index]
                guard let target = lookupPath(ext.path, from: nil) else { continue }
                pending.remove(at: slot)
                progress = true
                tree.types[target].inherited += ext.inherited
                for nested in ext.nested {
                    tree.types[nested].parent = target
                    if tree.types[nested].name == "CodingKeys" {
                        throw error(tree.types[nested].line, "declare CodingKeys in the type's own body, not in an extension")
                    }
                    tree.types[target].nested.append(nested)
                }
            }
        }
        // Extensions of types declared elsewhere (Date, View, …) do not affect this model.
    }

    private func checkDuplicateNames() throws(ModelError) {
        var scopes = [tree.topLevel]
        scopes += tree.types.map(\.nested)
        for scope in scopes {
            var seen = Set<String>()
            for index in scope where !seen.insert(tree.types[index].name).inserted {
                throw error(tree.types[index].line, "'\(tree.types[index].name)' is declared twice")
            }
        }
    }

    private func findRoot(_ requested: String?) throws(ModelError) -> Int {
        if let requested {
            let path = requested.split(separator: ".").map(String.init)
            guard let index = lookupPath(path, from: nil), tree.types[index].kind == .structure else {
                throw error(1, "no struct named '\(requested)' in this file")
            }
            return index
        }
        let candidates = tree.types.indices.filter {
            tree.types[$0].kind == .structure && tree.types[$0].conforms(to: "ActivityAttributes") && isReachable($0)
        }
        guard let first = candidates.first else {
            throw error(1, "no struct conforms to ActivityAttributes; name the attributes type")
        }
        guard candidates.count == 1 else {
            throw error(tree.types[candidates[1]].line,
                        "several structs conform to ActivityAttributes (\(candidates.map(qualifiedName).joined(separator: ", "))); name the attributes type")
        }
        return first
    }

    /// False for a type declared in an extension of a type this file does not declare.
    private func isReachable(_ index: Int) -> Bool {
        var cursor = index
        while let parent = tree.types[cursor].parent { cursor = parent }
        return tree.topLevel.contains(cursor)
    }

    private func isDecodable(_ index: Int) -> Bool {
        let decl = tree.types[index]
        return decl.conforms(to: "Codable") || decl.conforms(to: "Decodable") || decl.conforms(to: "ActivityAttributes")
    }

    private func qualifiedName(_ index: Int) -> String {
        var names = [tree.types[index].name]
        var cursor = index
        while let parent = tree.types[cursor].parent {
            names.append(tree.types[parent].name)
            cursor = parent
        }
        return names.reversed().joined(separator: ".")
    }

    /// Finds `path` by lexical lookup from inside type `scope` (nil: file scope).
    private func lookupPath(_ path: [String], from scope: Int?) -> Int? {
        guard let first = path.first else { return nil }
        var found: Int?
        var cursor = scope
        while found == nil {
            let members = cursor.map { tree.types[$0].nested } ?? tree.topLevel
            found = members.first { tree.types[$0].name == first }
            guard let current = cursor else { break }
            cursor = tree.types[current].parent
        }
        guard var result = found else { return nil }
        for name in path.dropFirst() {
            guard let next = tree.types[result].nested.first(where: { tree.types[$0].name == name }) else { return nil }
            result = next
        }
        return result
    }

    // MARK: Shapes

    private mutating func buildObject(_ index: Int) throws(ModelError) -> Int {
        if let existing = objectIndex[index] { return existing }
        let decl = tree.types[index]
        let slot = objects.count
        objects.append(ObjectShape(typeName: qualifiedName(index), fields: []))
        objectIndex[index] = slot
        building[index] = collectionDepth
        defer { building[index] = nil }

        var fields: [FieldShape] = []
        if let codingKeys = try codingKeys(of: index) {
            var listed = Set<String>()
            for (name, key, line) in codingKeys {
                guard let property = decl.properties.first(where: { $0.name == name }) else {
                    throw error(line, "CodingKeys case '\(name)' matches no stored property of \(decl.name)")
                }
                listed.insert(name)
                guard property.isDecodable else { continue }
                fields.append(FieldShape(key: key, property: name, shape: try shape(of: property, in: index), line: property.line))
            }
            for property in decl.properties where !listed.contains(property.name) {
                guard property.hasInitializer || property.hasImplicitNil else {
                    throw error(property.line, "'\(property.name)' has no CodingKeys case and no initial value, so \(decl.name) cannot synthesize Decodable")
                }
            }
        } else {
            for property in decl.properties where property.isDecodable {
                fields.append(FieldShape(key: property.name, property: property.name, shape: try shape(of: property, in: index), line: property.line))
            }
        }
        objects[slot].fields = fields
        return slot
    }

    /// The `CodingKeys` cases as (property name, JSON key, line), or nil when the type declares none.
    private func codingKeys(of index: Int) throws(ModelError) -> [(String, String, Int)]? {
        guard let keysIndex = tree.types[index].nested.first(where: { tree.types[$0].name == "CodingKeys" }) else { return nil }
        let keys = tree.types[keysIndex]
        guard keys.kind == .enumeration, keys.conforms(to: "CodingKey") else {
            throw error(keys.line, "CodingKeys must be an enum conforming to CodingKey")
        }
        let stringRaw = keys.inherited.first.map { $0.last == "String" } ?? false
        var seen = Set<String>()
        var result: [(String, String, Int)] = []
        for entry in keys.cases {
            var key = entry.name
            if stringRaw, case .string(let value)? = entry.rawValue { key = value }
            guard seen.insert(key).inserted else { throw error(entry.line, "CodingKeys has the key \"\(key)\" twice") }
            result.append((entry.name, key, entry.line))
        }
        return result
    }

    private mutating func shape(of property: PropertySyntax, in scope: Int) throws(ModelError) -> ValueShape {
        if let type = property.type { return try resolve(type, in: scope, line: property.line) }
        switch property.initializer {
        case .literal(.integer): return .integer(.int)
        case .literal(.float): return .double
        case .literal(.string): return .string
        case .literal(.boolean): return .bool
        default: throw error(property.line, "the type of '\(property.name)' cannot be inferred; write its type")
        }
    }

    private mutating func resolve(_ type: TypeSyntax, in scope: Int, line: Int) throws(ModelError) -> ValueShape {
        switch type {
        case .optional(let wrapped, _):
            if case .optional = wrapped { throw error(line, "nested optionals are outside the supported subset") }
            return .optional(try resolve(wrapped, in: scope, line: line))
        case .array(let element):
            collectionDepth += 1
            defer { collectionDepth -= 1 }
            return .array(try resolve(element, in: scope, line: line))
        case .dictionary(let key, let value):
            let keyKind: DictionaryKeyKind
            switch try resolve(key, in: scope, line: line) {
            case .string: keyKind = .string
            case .integer(.int): keyKind = .int
            default: throw error(line, "dictionary keys other than String and Int are outside the supported subset")
            }
            collectionDepth += 1
            defer { collectionDepth -= 1 }
            return .dictionary(key: keyKind, value: try resolve(value, in: scope, line: line))
        case .named(let path, let nameLine):
            if let index = lookupPath(path, from: scope) { return try resolveDeclared(index, line: nameLine) }
            let spelled = path.joined(separator: ".")
            let bare = path.count == 2 && (path[0] == "Swift" || path[0] == "Foundation") ? path[1] : (path.count == 1 ? path[0] : nil)
            if let bare, let builtin = Self.builtins[bare] { return builtin }
            if let bare, let what = Self.knownUnsupported[bare] {
                throw error(nameLine, "\(what) is outside the supported subset")
            }
            throw error(nameLine, "unknown type '\(spelled)'")
        }
    }

    private mutating func resolveDeclared(_ index: Int, line: Int) throws(ModelError) -> ValueShape {
        let decl = tree.types[index]
        guard isDecodable(index) else {
            throw error(line, "\(qualifiedName(index)) is decoded here but does not declare Codable or Decodable")
        }
        switch decl.kind {
        case .structure:
            if let enteredAt = building[index], enteredAt == collectionDepth {
                throw error(line, "\(qualifiedName(index)) contains itself without an array or dictionary in between")
            }
            return .object(try buildObject(index))
        case .enumeration:
            return .enumeration(try buildEnum(index))
        }
    }

    private mutating func buildEnum(_ index: Int) throws(ModelError) -> Int {
        if let existing = enumIndex[index] { return existing }
        let decl = tree.types[index]
        let rawName = decl.inherited.first.flatMap { path -> String? in
            path.count == 1 || path[0] == "Swift" ? path.last : nil
        }
        let rawValues: EnumShape.RawValues
        if rawName == "String" {
            var values: [String] = []
            for entry in decl.cases {
                var value = entry.name
                if let raw = entry.rawValue {
                    guard case .string(let text) = raw else { throw error(entry.line, "case '\(entry.name)' needs a string raw value") }
                    value = text
                }
                guard !values.contains(value) else { throw error(entry.line, "raw value \"\(value)\" is used twice in \(decl.name)") }
                values.append(value)
            }
            rawValues = .strings(values)
        } else if let rawName, let kind = IntegerKind(rawValue: rawName) {
            var values: [IntegerValue] = []
            var next: IntegerValue? = IntegerValue(negative: false, magnitude: 0)
            for entry in decl.cases {
                var value = next
                if let raw = entry.rawValue {
                    guard case .integer(let number) = raw else { throw error(entry.line, "case '\(entry.name)' needs an integer raw value") }
                    value = number
                }
                guard let value, kind.holds(value) else {
                    throw error(entry.line, "the raw value of case '\(entry.name)' does not fit \(kind.rawValue)")
                }
                guard !values.contains(value) else { throw error(entry.line, "raw value \(value) is used twice in \(decl.name)") }
                values.append(value)
                next = value.successor
            }
            rawValues = .integers(kind, values)
        } else {
            throw error(decl.line, "enum \(decl.name) has no String or integer raw type; its synthesized Codable form is outside the supported subset")
        }
        let slot = enums.count
        enums.append(EnumShape(typeName: qualifiedName(index), rawValues: rawValues))
        enumIndex[index] = slot
        return slot
    }

    private func error(_ line: Int, _ message: String) -> ModelError {
        ModelError(file: file, line: line, message: message)
    }
}

private extension PropertySyntax {
    /// A `var` of type `T?` or `T!` starts as `nil` without an initializer; `Optional<T>` does not.
    var hasImplicitNil: Bool {
        guard !isLet, case .optional(_, sugared: true)? = type else { return false }
        return true
    }
}
