/// Shapes: structs' fields in decoding order, type names resolved to what `JSONDecoder` expects, and the
/// parts that cannot be known recorded as unchecked.
extension ModelResolver {
    mutating func buildObject(_ index: Int) throws(ModelError) -> Int {
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
        guard keys.isEnum, keys.conforms(to: "CodingKey") else {
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
        let name = qualifiedName(scope) + "." + property.name
        if let wrapper = property.wrapper {
            return uncheckedShape(key: name, UncheckedPart(typeName: name, line: property.line,
                                                           reason: "\(wrapper) (a property wrapper or macro) decides how it decodes"))
        }
        if let type = property.type { return try resolve(type, in: scope, line: property.line) }
        switch property.initializer {
        case .literal(.integer): return .integer(.int)
        case .literal(.float): return .double
        case .literal(.string): return .string
        case .literal(.boolean): return .bool
        default:
            return uncheckedShape(key: name, UncheckedPart(typeName: name, line: property.line,
                                                           reason: "its type is inferred from an initial value, which is not read"))
        }
    }

    mutating func resolve(_ type: TypeSyntax, in scope: Int?, line: Int) throws(ModelError) -> ValueShape {
        switch type {
        case .optional(let wrapped, _):
            if case .optional = wrapped {
                return uncheckedShape(key: "T?? \(line)", UncheckedPart(typeName: "an optional of an optional", line: line,
                                                                    reason: "which null it decodes as is not read"))
            }
            return .optional(try resolve(wrapped, in: scope, line: line))
        case .array(let element):
            collectionDepth += 1
            defer { collectionDepth -= 1 }
            return .array(try resolve(element, in: scope, line: line))
        case .set(let element):
            collectionDepth += 1
            defer { collectionDepth -= 1 }
            return .set(try resolve(element, in: scope, line: line))
        case .dictionary(let key, let value):
            let keyKind: DictionaryKeyKind
            switch try resolve(key, in: scope, line: line) {
            case .string: keyKind = .string
            case .integer(.int): keyKind = .int
            default:
                // Other keys decode from an array of alternating keys and values, or, for a CodingKeyRepresentable
                // key, from an object; which one is not read here.
                return uncheckedShape(key: "[K: V] \(line)", UncheckedPart(typeName: "a dictionary whose keys are neither String nor Int", line: line,
                                                                       reason: "its JSON form depends on the key type's conformances, which are not read"))
            }
            collectionDepth += 1
            defer { collectionDepth -= 1 }
            return .dictionary(key: keyKind, value: try resolve(value, in: scope, line: line))
        case .range(let bound, let closed):
            return try range(bound, closed: closed, in: scope, line: line)
        case .generic(let path, let nameLine):
            let spelled = path.joined(separator: ".") + "<…>"
            return uncheckedShape(key: spelled, UncheckedPart(typeName: spelled, line: nameLine, reason: "a generic type; "
                + "which of its parameters decode is not read"))
        case .unreadable(let message, let nameLine):
            throw error(nameLine, message)
        case .named(let path, let nameLine):
            return try resolveNamed(path, in: scope, line: nameLine)
        }
    }

    /// `Range<T>`/`ClosedRange<T>` of a bound whose order the checker reads: integers, floating point, `Date`, `Decimal`.
    private mutating func range(_ bound: TypeSyntax, closed: Bool, in scope: Int?, line: Int) throws(ModelError) -> ValueShape {
        let boundShape = try resolve(bound, in: scope, line: line)
        switch boundShape {
        case .integer, .double, .float, .date, .decimal:
            return .range(boundShape, closed: closed)
        default:
            let spelled = "\(closed ? "ClosedRange" : "Range")<…>"
            return uncheckedShape(key: spelled + "\(line)", UncheckedPart(typeName: spelled, line: line, reason: "a range of a bound whose order is not read"))
        }
    }

    private mutating func resolveNamed(_ path: [String], in scope: Int?, line: Int) throws(ModelError) -> ValueShape {
        if let index = lookupPath(path, from: scope) { return try resolveDeclared(index, line: line) }
        let spelled = path.joined(separator: ".")
        let bare = path.count == 2 && (path[0] == "Swift" || path[0] == "Foundation") ? path[1] : (path.count == 1 ? path[0] : nil)
        if let bare, let builtin = Self.builtins[bare] { return builtin }
        if let bare, let what = Self.knownUnsupported[bare] {
            throw error(line, "\(what) is not Decodable, so the app would not compile")
        }
        return uncheckedShape(key: spelled, UncheckedPart(typeName: spelled, line: line, reason: "not declared in this file, so how it decodes is not known"))
    }

    private mutating func resolveDeclared(_ index: Int, line: Int) throws(ModelError) -> ValueShape {
        let decl = tree.types[index]
        if let reason = decl.unchecked { return uncheckedShape(type: index, reason) }
        switch decl.kind {
        case .alias(let aliased):
            guard followingAliases.insert(index).inserted else { throw error(decl.line, "type alias \(decl.name) refers to itself") }
            defer { followingAliases.remove(index) }
            return try resolve(aliased, in: decl.parent, line: line)
        case .other(let keyword):
            return uncheckedShape(type: index, ("a \(keyword); how it decodes is not read", decl.line))
        case .structure, .enumeration:
            break
        }
        guard isDecodable(index) else {
            throw error(line, "\(qualifiedName(index)) is decoded here but does not declare Codable or Decodable")
        }
        if decl.isEnum {
            if let reason = uncheckedEnumReason(index) { return uncheckedShape(type: index, reason) }
            return .enumeration(try buildEnum(index))
        }
        if let enteredAt = building[index], enteredAt == collectionDepth {
            throw error(line, "\(qualifiedName(index)) contains itself without an array or dictionary in between")
        }
        return .object(try buildObject(index))
    }

    // MARK: Unchecked parts

    mutating func uncheckedShape(type index: Int, _ reason: (reason: String, line: Int)) -> ValueShape {
        uncheckedShape(key: "type \(index)", UncheckedPart(typeName: qualifiedName(index), line: reason.line, reason: reason.reason))
    }

    mutating func uncheckedShape(key: String, _ part: UncheckedPart) -> ValueShape {
        if let existing = uncheckedIndex[key] { return .unchecked(existing) }
        unchecked.append(part)
        uncheckedIndex[key] = unchecked.count - 1
        return .unchecked(unchecked.count - 1)
    }
}

extension PropertySyntax {
    /// A `var` of type `T?` or `T!` starts as `nil` without an initializer; `Optional<T>` does not.
    var hasImplicitNil: Bool {
        guard !isLet, case .optional(_, sugared: true)? = type else { return false }
        return true
    }
}
