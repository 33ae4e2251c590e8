extension RecipeScaffold {
    /// The event's fields as the skeleton declares them, each named by its path with its prefixes kept
    /// (`pickup.label` is `pickup_label`; an API call's `body.` is left out, a path capture is in snake case);
    /// a field whose lines disagree on its JSON type is left out, and so is an API call's body that is always
    /// null (a DELETE's).
    static func fields(_ e: RecordingSurvey.Event, api: Bool = false) -> [Field] {
        var out: [Field] = []
        for (i, path) in e.order.enumerated() {
            guard let survey = e.fields[path] else { continue }
            // An object that is null on some lines: its members are fields (absent on those lines), it is not one.
            if survey.nulls == survey.present, e.order.contains(where: { $0.hasPrefix(path + ".") }) { continue }
            if api, survey.nulls == survey.present, RecordingSurvey.bodyKeys.contains(path) { continue }
            guard var f = field(survey, lines: e.lines) else { continue }
            f.name = name(path, api: api)
            f.from = path
            if isID(f.name), !f.type.hasPrefix("token") { f.note = "id"; f.oneOf = nil }
            if out.contains(where: { $0.name == f.name }) { f.name += "_\(i)" }
            out.append(f)
        }
        return out
    }

    /// A field's name from its path: `pickup.label` → `pickup_label`; an API call's `body.status` → `status`;
    /// `path.parcelId` → `parcel_id`.
    static func name(_ path: String, api: Bool) -> String {
        if path.hasPrefix("path.") { return snake(String(path.dropFirst(5))) }
        let inner = api && path.hasPrefix("body.") ? String(path.dropFirst(5)) : path
        return inner.replacingOccurrences(of: ".", with: "_")
    }

    /// The type that reads every line's value, and a note of what the values look like.
    static func field(_ s: FieldSurvey, lines: Int) -> Field? {
        let kinds = [s.strings + s.empties, s.integers, s.numbers, s.booleans, s.intLists, s.stringLists].filter { $0 > 0 }.count
        let numeric = s.integers > 0 && s.numbers > 0 && kinds == 2
        guard s.other == 0, kinds <= 1 || numeric else { return nil }
        var type: String
        var note = ""
        if numeric || s.numbers > 0 { type = "number" } else if s.integers > 0 { type = "int" } else if s.booleans > 0 { type = "bool" }
        else if s.intLists > 0 { type = "[int]" } else if s.stringLists > 0 { type = "[string]" }
        else if s.strings > 0 && s.allTokens { type = "token"; note = "device token" }
        else { type = "string" }
        if s.strings > 0 && s.allTimes && type == "string" { note = "a time (ISO 8601)" }
        if kinds == 0 { note = "always null" }
        let absentOnSome = s.present < lines || (type == "token" && s.empties > 0)
        let nullable = !absentOnSome && s.nulls > 0
        if absentOnSome { type += "?" }
        // A few values, each on two lines or more on average: the whole set, written as the field's `one_of` (no empty
        // text among them, which a `one_of` would refuse).
        var oneOf: [String]?
        if note.isEmpty, !s.values.isEmpty, !s.moreValues, s.values.count * 2 <= s.present - s.nulls, s.empties == 0,
           type.hasPrefix("string") || type.hasPrefix("int") {
            oneOf = s.values
            note = "the values the recording has"
        }
        return Field(name: "", type: type, from: "", nullable: nullable, note: note, oneOf: oneOf)
    }

    /// An id-looking name: `id`, `…_id`, `…Id`.
    static func isID(_ name: String) -> Bool {
        name.lowercased() == "id" || name.hasSuffix("_id") || name.hasSuffix("Id") || name.hasSuffix("_ids")
    }

    /// `parcelId` → `parcel_id`.
    static func snake(_ s: String) -> String {
        var out = ""
        for c in s {
            if c.isUppercase { out += "_" + c.lowercased() } else { out.append(c) }
        }
        return out
    }
}
