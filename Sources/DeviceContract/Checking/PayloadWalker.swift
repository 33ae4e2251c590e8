import APNsCore

/// Walks a scanned payload against the model and collects ``DecodeFailure``s. See ``PayloadCheck``.
struct PayloadWalker {
    enum PathComponent {
        case key(String)
        case index(Int)
        /// A dictionary key: the index of its string node.
        case rawKey(Int)
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let nodes: [JSONNode]
    let model: ActivityKitModel
    let dateStrategy: DateStrategy
    private(set) var failures: [DecodeFailure] = []
    /// Values present in the payload that were left to a part of the model that is not checked.
    private(set) var uncheckedValues = 0
    var path: [PathComponent] = []

    private static let apsKey = Array("aps".utf8)
    private static let contentStateKey = Array("content-state".utf8)
    private static let attributesKey = Array("attributes".utf8)
    private static let eventKey = Array("event".utf8)

    init(bytes: UnsafeBufferPointer<UInt8>, nodes: [JSONNode], model: ActivityKitModel, dateStrategy: DateStrategy) {
        self.bytes = bytes
        self.nodes = nodes
        self.model = model
        self.dateStrategy = dateStrategy
        path.reserveCapacity(8)
    }

    mutating func checkPayload(event: LiveActivityEvent) {
        guard let root = nodes.first, root.kind == .object else {
            fail(.missingContainer, "expected the payload to be a JSON object, found \(describe(0))")
            return
        }
        guard keysAreValid(0) else { return }
        guard let aps = container(Self.apsKey, named: "aps", in: 0, parent: "the payload") else { return }
        path.append(.key("aps"))
        let apsKeysValid = keysAreValid(aps)
        path.removeLast()
        guard apsKeysValid else { return }
        if event == .start {
            checkRoot(Self.attributesKey, named: "attributes", in: aps, model.attributesRoot)
        }
        checkRoot(Self.contentStateKey, named: "content-state", in: aps, model.contentStateRoot)
    }

    /// `aps.attributes` or `aps.content-state`: an object checked against its struct; or, for a root whose
    /// decoding is not known, any value present.
    private mutating func checkRoot(_ key: [UInt8], named name: String, in aps: Int, _ shape: ValueShape) {
        if case .unchecked = shape, member(key, isASCII: true, in: aps) != nil {
            uncheckedValues += 1
            return
        }
        guard case .object(let objectIndex) = shape, let found = container(key, named: name, in: aps, parent: "aps") else { return }
        path.append(.key(name))
        checkObject(found, objectIndex)
        path.removeLast()
    }

    /// The event `aps.event` names, read as APNs reads the key: the first `event` member of the first
    /// `aps` object, a string equal to `update`, `end` or `start`; nil otherwise.
    func event() -> LiveActivityEvent? {
        guard let root = nodes.first, root.kind == .object,
              let aps = member(Self.apsKey, isASCII: true, in: 0), nodes[aps].kind == .object,
              let value = member(Self.eventKey, isASCII: true, in: aps), nodes[value].kind == .string,
              let text = JSONString.decode(bytes, nodes[value])
        else { return nil }
        return LiveActivityEvent(rawValue: String(decoding: text, as: UTF8.self))
    }

    // MARK: Containers and objects

    private mutating func container(_ key: [UInt8], named name: String, in object: Int, parent: String) -> Int? {
        let found = member(key, isASCII: true, in: object)
        path.append(.key(name))
        defer { path.removeLast() }
        guard let found else {
            fail(.missingContainer, "no \"\(name)\" object in \(parent)")
            return nil
        }
        guard nodes[found].kind == .object else {
            fail(.missingContainer, "expected \"\(name)\" to be an object, found \(describe(found))")
            return nil
        }
        return found
    }

    private mutating func checkObject(_ object: Int, _ shapeIndex: Int) {
        guard keysAreValid(object) else { return }
        checkFields(object, model.objects[shapeIndex].fields)
    }

    /// Each field's key in `object` (its keys already validated), in decoding order.
    mutating func checkFields(_ object: Int, _ fields: [FieldShape]) {
        for field in fields {
            path.append(.key(field.key))
            if let value = member(field.keyUTF8, isASCII: field.keyIsASCII, in: object) {
                checkValue(value, field.shape)
            } else if !field.shape.isOptional {
                var message = "missing key \"\(field.key)\" (\(expected(field.shape)))"
                if field.key != field.property, member(field.propertyUTF8, isASCII: true, in: object) != nil {
                    message += "; the payload has \"\(field.property)\": `\(field.property)` is the property; the key is `\(field.key)`"
                }
                fail(.missingKey, message)
            }
            path.removeLast()
        }
    }

    /// The value of the first member whose key equals `key` (as Swift `String`s compare), or nil.
    func member(_ key: [UInt8], isASCII: Bool, in object: Int) -> Int? {
        var cursor = object + 1
        for _ in 0..<nodes[object].count {
            if keyMatches(cursor, key, isASCII: isASCII) { return cursor + 1 }
            cursor = nodes[cursor + 1].next
        }
        return nil
    }

    func keyMatches(_ keyIndex: Int, _ key: [UInt8], isASCII: Bool) -> Bool {
        let node = nodes[keyIndex]
        if node.isSimple && node.isASCII && isASCII {
            guard node.end - node.start == key.count else { return false }
            var offset = 0
            while offset < key.count {
                if bytes[node.start + offset] != key[offset] { return false }
                offset += 1
            }
            return true
        }
        guard let decoded = JSONString.decode(bytes, node) else { return false }
        return JSONString.equals(decoded, key, expectedIsASCII: isASCII)
    }

    /// `JSONDecoder` reads every key of an object it decodes as a keyed container or dictionary.
    mutating func keysAreValid(_ object: Int) -> Bool {
        var cursor = object + 1
        for _ in 0..<nodes[object].count {
            let key = nodes[cursor]
            if !(key.isSimple && key.isASCII) && !JSONString.isValid(bytes, key) {
                fail(.invalidJSON, "the key at byte \(key.start) is not valid JSON text (a bad escape, control character or invalid UTF-8)")
                return false
            }
            cursor = nodes[cursor + 1].next
        }
        return true
    }

    // MARK: Values

    mutating func checkValue(_ index: Int, _ shape: ValueShape) {
        let node = nodes[index]
        if case .unchecked = shape {
            uncheckedValues += 1
            return
        }
        if case .optional(let wrapped) = shape {
            if node.kind != .null { checkValue(index, wrapped) }
            return
        }
        if node.kind == .null {
            fail(.nullForNonOptional, "expected \(expected(shape)), found null")
            return
        }
        switch shape {
        case .optional, .unchecked:
            return
        case .string:
            guard node.kind == .string else { return mismatch(index, shape) }
            if !JSONString.isValid(bytes, node) { invalidString(index) }
        case .bool:
            guard node.kind == .true || node.kind == .false else { return mismatch(index, shape) }
        case .integer(let kind):
            guard node.kind == .number else { return mismatch(index, shape) }
            checkInteger(index, kind, reason: .typeMismatch, shape: shape)
        case .double, .float:
            checkFloating(index, shape)
        case .date:
            checkDate(index)
        case .url, .uuid, .data:
            checkParsedString(index, shape)
        case .decimal:
            guard node.kind == .number else { return mismatch(index, shape) }
            if FoundationValues.decimal(numberText(index)) == nil {
                fail(.typeMismatch, "expected Decimal, found \(describe(index)), which Decimal cannot hold")
            }
        case .range(let bound, _):
            guard node.kind == .array else { return mismatch(index, shape) }
            checkRange(index, bound, shape)
        case .array(let element), .set(let element):
            guard node.kind == .array else { return mismatch(index, shape) }
            var cursor = index + 1
            for position in 0..<node.count {
                path.append(.index(position))
                checkValue(cursor, element)
                path.removeLast()
                cursor = nodes[cursor].next
            }
        case .dictionary(let keyKind, let value):
            guard node.kind == .object else { return mismatch(index, shape) }
            checkDictionary(index, keyKind: keyKind, value: value)
        case .object(let objectIndex):
            guard node.kind == .object else { return mismatch(index, shape) }
            checkObject(index, objectIndex)
        case .enumeration(let enumIndex):
            checkEnum(index, model.enums[enumIndex], shape: shape)
        }
    }

    private mutating func checkFloating(_ index: Int, _ shape: ValueShape) {
        let node = nodes[index]
        guard node.kind == .number else { return mismatch(index, shape) }
        switch JSONNumber.floating(bytes, node, isFloat: shape == .float) {
        case .fits: break
        case .malformed: malformedNumber(index)
        case .doesNotFit: fail(.typeMismatch, "expected \(expected(shape)), found \(describe(index)), which \(expected(shape)) cannot hold")
        }
    }

    /// `URL`, `UUID` and `Data`: a string the Foundation initializer `JSONDecoder` calls accepts.
    private mutating func checkParsedString(_ index: Int, _ shape: ValueShape) {
        let node = nodes[index]
        guard node.kind == .string else { return mismatch(index, shape) }
        guard let decoded = JSONString.decode(bytes, node) else { return invalidString(index) }
        let text = String(decoding: decoded, as: UTF8.self)
        switch shape {
        case .url where !FoundationValues.isURL(text):
            fail(.invalidValue, "expected URL, found \(describe(index)), which URL(string:) rejects")
        case .uuid where !FoundationValues.isUUID(decoded):
            fail(.invalidValue, "expected UUID, found \(describe(index)), which is not a UUID string")
        case .data where !FoundationValues.isBase64(text):
            fail(.invalidValue, "expected Data (a base64 string), found \(describe(index)), which is not base64 with padding")
        default:
            break
        }
    }

    /// A number node's text.
    func numberText(_ index: Int) -> String {
        let node = nodes[index]
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[node.start..<node.end]), as: UTF8.self)
    }

    mutating func checkInteger(_ index: Int, _ kind: IntegerKind, reason: DecodeFailure.Reason, shape: ValueShape) {
        switch JSONNumber.integer(bytes, nodes[index], as: kind) {
        case .value: break
        case .malformed: malformedNumber(index)
        case .doesNotFit: fail(reason, "expected \(expected(shape)), found \(describe(index)), which is not a whole number \(kind.rawValue) holds")
        }
    }

    mutating func checkDate(_ index: Int) {
        let node = nodes[index]
        switch dateStrategy {
        case .deferredToDate, .secondsSince1970, .millisecondsSince1970:
            guard node.kind == .number else {
                return fail(.badDate, "expected \(expected(.date)), found \(describe(index))")
            }
            switch JSONNumber.floating(bytes, node, isFloat: false) {
            case .fits: break
            case .malformed: malformedNumber(index)
            case .doesNotFit: fail(.badDate, "expected \(expected(.date)), found \(describe(index)), which Double cannot hold")
            }
        case .iso8601:
            guard node.kind == .string else {
                return fail(.badDate, "expected \(expected(.date)), found \(describe(index))")
            }
            guard let decoded = JSONString.decode(bytes, node) else { return invalidString(index) }
            if !FoundationValues.isISO8601Date(String(decoding: decoded, as: UTF8.self)) {
                fail(.badDate, "expected \(expected(.date)), found \(describe(index)), which the ISO 8601 parser rejects")
            }
        }
    }

    mutating func checkEnum(_ index: Int, _ shape: EnumShape, shape valueShape: ValueShape) {
        let node = nodes[index]
        switch shape.rawValues {
        case .strings(let values):
            guard node.kind == .string else { return mismatch(index, valueShape) }
            guard let decoded = JSONString.decode(bytes, node) else { return invalidString(index) }
            let matches = shape.stringRawUTF8.contains { JSONString.equals(decoded, $0, expectedIsASCII: shape.stringRawValuesAreASCII) }
            if !matches {
                fail(.badEnumValue, "\(describe(index)) is not a case of \(shape.typeName) (one of \(values.map { "\"\($0)\"" }.joined(separator: ", ")))")
            }
        case .integers(let kind, let values):
            guard node.kind == .number else { return mismatch(index, valueShape) }
            switch JSONNumber.integer(bytes, node, as: kind) {
            case .value(let value):
                if !values.contains(value) {
                    fail(.badEnumValue, "\(describe(index)) is not a case of \(shape.typeName) (one of \(values.map(\.description).joined(separator: ", ")))")
                }
            case .malformed: malformedNumber(index)
            case .doesNotFit:
                fail(.typeMismatch, "expected \(shape.typeName) (\(kind.rawValue) raw value), found \(describe(index)), "
                    + "which is not a whole number \(kind.rawValue) holds")
            }
        case .keyed(let cases):
            checkKeyedEnum(index, shape, cases)
        }
    }

    private mutating func checkDictionary(_ index: Int, keyKind: DictionaryKeyKind, value: ValueShape) {
        guard keysAreValid(index) else { return }
        let count = nodes[index].count
        var seen: Set<String>? = count > 32 ? [] : nil
        var earlierKeys: [Int] = []
        var cursor = index + 1
        for _ in 0..<count {
            let keyIndex = cursor
            cursor = nodes[cursor + 1].next
            // JSONDecoder keeps the first of duplicate keys and never decodes the others.
            if seen != nil {
                guard seen?.insert(keyString(keyIndex)).inserted == true else { continue }
            } else {
                guard !earlierKeys.contains(where: { keysEqual($0, keyIndex) }) else { continue }
                earlierKeys.append(keyIndex)
            }
            path.append(.rawKey(keyIndex))
            if keyKind == .int && Int(keyString(keyIndex)) == nil {
                fail(.typeMismatch, "expected an Int key (a string Int(_:) reads), found \(describe(keyIndex))")
            } else {
                checkValue(keyIndex + 1, value)
            }
            path.removeLast()
        }
    }

    private func keysEqual(_ first: Int, _ second: Int) -> Bool {
        let a = nodes[first], b = nodes[second]
        if a.isSimple && a.isASCII && b.isSimple && b.isASCII {
            guard a.end - a.start == b.end - b.start else { return false }
            return (0..<(a.end - a.start)).allSatisfy { bytes[a.start + $0] == bytes[b.start + $0] }
        }
        return keyString(first) == keyString(second)
    }

    /// A key's decoded text (keys are validated before this is called).
    func keyString(_ index: Int) -> String {
        String(decoding: JSONString.decode(bytes, nodes[index]) ?? [], as: UTF8.self)
    }

    // MARK: Failures

    mutating func mismatch(_ index: Int, _ shape: ValueShape) {
        fail(.typeMismatch, "expected \(expected(shape)), found \(describe(index))")
    }

    mutating func malformedNumber(_ index: Int) {
        fail(.invalidJSON, "\(describe(index)) is not a valid JSON number")
    }

    mutating func invalidString(_ index: Int) {
        fail(.invalidJSON, "\(describe(index)) is not valid JSON text (a bad escape, control character or invalid UTF-8)")
    }

    mutating func fail(_ reason: DecodeFailure.Reason, _ message: String) {
        failures.append(DecodeFailure(path: renderPath(), reason: reason, message: message))
    }

    private func renderPath() -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += text.isEmpty ? key : "." + key
            case .index(let position): text += "[\(position)]"
            case .rawKey(let keyIndex): text += "." + keyString(keyIndex)
            }
        }
        return text
    }

    func expected(_ shape: ValueShape) -> String {
        guard shape == .date else { return model.typeName(shape) }
        switch dateStrategy {
        case .deferredToDate: return "Date (a number of seconds since 2001-01-01)"
        case .secondsSince1970: return "Date (a number of seconds since 1970-01-01)"
        case .millisecondsSince1970: return "Date (a number of milliseconds since 1970-01-01)"
        case .iso8601: return "Date (an ISO 8601 string)"
        }
    }

    /// A short description of a value: `string "abc"`, `number 1.5`, `true`, `an object`.
    func describe(_ index: Int) -> String {
        guard index < nodes.count else { return "nothing" }
        let node = nodes[index]
        func excerpt(_ start: Int, _ end: Int) -> String {
            let clipped = min(end, start + 40)
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<clipped]), as: UTF8.self)
            return clipped < end ? text + "…" : text
        }
        switch node.kind {
        case .string: return "string \"\(excerpt(node.start, node.end))\""
        case .number: return "number \(excerpt(node.start, node.end))"
        case .true: return "true"
        case .false: return "false"
        case .null: return "null"
        case .object: return "an object"
        case .array: return "an array"
        }
    }
}
