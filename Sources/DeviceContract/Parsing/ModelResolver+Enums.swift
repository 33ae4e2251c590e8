/// Enums: by raw value (`String` or an integer type), or, without a raw type, keyed by case name with the
/// associated values in an object (Swift 5.5's synthesized form).
extension ModelResolver {
    /// Raw types whose values this checker does not match (a `Double` or `Character` raw value).
    static let otherRawTypes: Set<String> = ["Double", "Float", "CGFloat", "Character", "Float16", "Float80"]

    mutating func buildEnum(_ index: Int) throws(ModelError) -> Int {
        if let existing = enumIndex[index] { return existing }
        let decl = tree.types[index]
        let rawName = decl.inherited.first.flatMap { path -> String? in
            path.count == 1 || path[0] == "Swift" ? path.last : nil
        }
        let rawValues: EnumShape.RawValues
        if rawName == "String" {
            rawValues = .strings(try stringRawValues(decl))
        } else if let rawName, let kind = IntegerKind(rawValue: rawName) {
            rawValues = .integers(kind, try integerRawValues(decl, kind))
        } else if let rawName, Self.otherRawTypes.contains(rawName) {
            throw error(decl.line, "enum \(decl.name) has a \(rawName) raw type; only String and integer raw values are matched")
        } else {
            return try buildKeyedEnum(index)
        }
        let slot = enums.count
        enums.append(EnumShape(typeName: qualifiedName(index), rawValues: rawValues))
        enumIndex[index] = slot
        return slot
    }

    private func stringRawValues(_ decl: TypeDeclSyntax) throws(ModelError) -> [String] {
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
        return values
    }

    private func integerRawValues(_ decl: TypeDeclSyntax, _ kind: IntegerKind) throws(ModelError) -> [IntegerValue] {
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
        return values
    }

    /// Why an enum is not checked: a raw type whose values are not matched (`Double`, `Character`), or, without
    /// a raw type, its own coding keys for cases (`CodingKeys`, `…CodingKeys`). Nil otherwise.
    func uncheckedEnumReason(_ index: Int) -> (reason: String, line: Int)? {
        let decl = tree.types[index]
        if let raw = decl.inherited.first?.last, Self.otherRawTypes.contains(raw) {
            return ("its \(raw) raw values are not matched", decl.line)
        }
        if let raw = decl.inherited.first?.last, raw == "String" || IntegerKind(rawValue: raw) != nil { return nil }
        guard let keys = decl.nested.first(where: { tree.types[$0].name.hasSuffix("CodingKeys") }) else { return nil }
        return ("its own \(tree.types[keys].name) change the keys it decodes", tree.types[keys].line)
    }

    /// `{"case": {"label": …, "_1": …}}`.
    private mutating func buildKeyedEnum(_ index: Int) throws(ModelError) -> Int {
        let decl = tree.types[index]
        let slot = enums.count
        enums.append(EnumShape(typeName: qualifiedName(index), rawValues: .keyed([])))
        enumIndex[index] = slot
        var cases: [EnumShape.KeyedCase] = []
        for entry in decl.cases {
            var fields: [FieldShape] = []
            for (position, value) in (entry.associated ?? []).enumerated() {
                let key = value.label ?? "_\(position)"
                guard !fields.contains(where: { $0.key == key }) else { throw error(entry.line, "case '\(entry.name)' has the label '\(key)' twice") }
                let shape = try resolve(value.type, in: index, line: entry.line)
                fields.append(FieldShape(key: key, property: key, shape: shape, line: entry.line))
            }
            cases.append(EnumShape.KeyedCase(name: entry.name, fields: fields))
        }
        enums[slot].rawValues = .keyed(cases)
        return slot
    }
}
