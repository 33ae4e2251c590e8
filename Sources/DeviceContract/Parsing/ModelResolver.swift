/// Turns a ``DeclarationTree`` into an ``ActivityKitModel`` by applying the rules of synthesized
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
///   without a raw type decodes from an object with exactly one key naming a case, whose value is an
///   object of the associated values keyed by label, or `_0`, `_1`, … where unlabeled.
/// - `Set` decodes as an array; `Range` and `ClosedRange` as `[lower, upper]`; `Decimal` from a number;
///   `Data` from a base64 string; a `typealias` as the type it names.
/// - A struct used by a decoded property must declare `Codable` or `Decodable` (here or in an
///   extension in the same file); `ActivityAttributes` implies it.
/// - A struct may contain itself only through an array or a dictionary.
///
/// What cannot be known from the declarations becomes a ``ValueShape/unchecked(_:)`` part, listed in
/// ``ActivityKitModel/unchecked``: a type with its own `init(from:)`, a type not declared in this file, a
/// generic type, a property wrapper, a class.
///
/// Names resolve like Swift's lexical lookup: nested types of the enclosing types, innermost first,
/// then the file's top-level types, then the standard types (`String`, `Bool`, `Int`, `Int8` … `UInt64`,
/// `Double`, `Float`, `TimeInterval`, `CGFloat`, `Date`, `URL`, `UUID`, `Decimal`, `Data`, optionally
/// qualified by `Swift.` or `Foundation.`).
struct ModelResolver {
    var tree: DeclarationTree
    let file: String
    var objects: [ObjectShape] = []
    var enums: [EnumShape] = []
    var unchecked: [UncheckedPart] = []
    var objectIndex: [Int: Int] = [:]
    var enumIndex: [Int: Int] = [:]
    /// Unchecked parts by what they describe (a type's index, or a property's qualified name).
    var uncheckedIndex: [String: Int] = [:]
    /// Structs being built, with the collection depth at which each was entered.
    var building: [Int: Int] = [:]
    var collectionDepth = 0
    /// Type aliases being followed (a cycle is an error).
    var followingAliases: Set<Int> = []

    static let builtins: [String: ValueShape] = {
        var table: [String: ValueShape] = [
            "String": .string, "Bool": .bool, "Double": .double, "Float": .float, "TimeInterval": .double,
            "CGFloat": .double, "Date": .date, "URL": .url, "UUID": .uuid, "Decimal": .decimal, "Data": .data,
        ]
        for kind in IntegerKind.allCases { table[kind.rawValue] = .integer(kind) }
        return table
    }()

    /// Standard types synthesized `Decodable` cannot decode (the app would not compile).
    static let knownUnsupported: [String: String] = [
        "Character": "Character", "Float16": "Float16", "Float80": "Float80", "Any": "Any",
        "AnyObject": "AnyObject", "AnyHashable": "AnyHashable", "Substring": "Substring", "Result": "Result",
    ]

    init(tree: DeclarationTree, file: String) {
        self.tree = tree
        self.file = file
    }

    mutating func resolve(attributesType requested: String?) throws(ModelError) -> ActivityKitModel {
        try mergeExtensions()
        try checkDuplicateNames()
        let root = try findRoot(requested)
        let rootDecl = tree.types[root]
        guard let stateEntry = rootDecl.nested.first(where: { tree.types[$0].name == "ContentState" }) else {
            throw error(rootDecl.line, "\(rootDecl.name) has no nested ContentState struct or type alias")
        }
        let attributesRoot = try rootShape(root)
        let contentStateRoot: ValueShape
        if case .alias(let aliased) = tree.types[stateEntry].kind, aliasTarget(stateEntry) == nil {
            contentStateRoot = try resolve(aliased, in: root, line: tree.types[stateEntry].line)
        } else {
            let contentState = aliasTarget(stateEntry) ?? stateEntry
            guard tree.types[contentState].isStruct else {
                throw error(tree.types[contentState].line, "ContentState must be a struct")
            }
            guard isDecodable(contentState) else {
                throw error(tree.types[contentState].line, "ContentState must declare Codable (ActivityKit requires Codable & Hashable)")
            }
            contentStateRoot = try rootShape(contentState)
        }
        return ActivityKitModel(attributesTypeName: qualifiedName(root), objects: objects, enums: enums, unchecked: unchecked,
                             attributesRoot: attributesRoot, contentStateRoot: contentStateRoot)
    }

    private mutating func rootShape(_ index: Int) throws(ModelError) -> ValueShape {
        if let reason = tree.types[index].unchecked { return uncheckedShape(type: index, reason) }
        return .object(try buildObject(index))
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
                if tree.types[target].unchecked == nil { tree.types[target].unchecked = ext.unchecked }
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
            guard let index = lookupPath(path, from: nil), tree.types[index].isStruct else {
                throw error(1, "no struct named '\(requested)' in this file")
            }
            return index
        }
        let candidates = tree.types.indices.filter {
            tree.types[$0].isStruct && tree.types[$0].conforms(to: "ActivityAttributes") && isReachable($0)
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
    func isReachable(_ index: Int) -> Bool {
        var cursor = index
        while let parent = tree.types[cursor].parent { cursor = parent }
        return tree.topLevel.contains(cursor)
    }

    func isDecodable(_ index: Int) -> Bool {
        let decl = tree.types[index]
        return decl.conforms(to: "Codable") || decl.conforms(to: "Decodable") || decl.conforms(to: "ActivityAttributes")
    }

    func qualifiedName(_ index: Int) -> String {
        var names = [tree.types[index].name]
        var cursor = index
        while let parent = tree.types[cursor].parent {
            names.append(tree.types[parent].name)
            cursor = parent
        }
        return names.reversed().joined(separator: ".")
    }

    /// Finds `path` by lexical lookup from inside type `scope` (nil: file scope); a type alias on the way
    /// (`Status.Inner`, `Status` an alias) is followed to the type it names.
    func lookupPath(_ path: [String], from scope: Int?, depth: Int = 0) -> Int? {
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
            if case .alias = tree.types[result].kind, let target = aliasTarget(result, depth: depth + 1) { result = target }
            guard let next = tree.types[result].nested.first(where: { tree.types[$0].name == name }) else { return nil }
            result = next
        }
        return result
    }

    /// The struct, enum or other type a `typealias` names when this file declares it (following aliases of
    /// aliases); nil for anything else.
    func aliasTarget(_ index: Int, depth: Int = 0) -> Int? {
        guard depth < DeclarationParser.maxNesting, case .alias(.named(let path, _)) = tree.types[index].kind,
              let target = lookupPath(path, from: tree.types[index].parent, depth: depth + 1) else { return nil }
        if case .alias = tree.types[target].kind { return aliasTarget(target, depth: depth + 1) }
        return target
    }

    func error(_ line: Int, _ message: String) -> ModelError {
        ModelError(file: file, line: line, message: message)
    }
}

