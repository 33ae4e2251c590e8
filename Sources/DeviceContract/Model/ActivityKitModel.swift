/// An app's ActivityKit model as synthesized `Decodable` sees it: the attributes struct (decoded
/// from `aps.attributes` when a Live Activity is started by push) and its nested `ContentState`
/// (decoded from `aps.content-state` on every update, end and start).
///
/// Build one with ``ModelDeclaration/parse(source:file:attributesType:)``; check payloads with
/// ``PayloadCheck``. `description` lists every decoded key and its Swift type.
public struct ActivityKitModel: Sendable, CustomStringConvertible {
    /// The attributes type's qualified Swift name, e.g. `LeaveRequestAttributes`.
    public let attributesTypeName: String

    /// The parts of the model whose decoding cannot be known from its declarations, and so are not
    /// checked; a payload reaching one is checked only partly.
    public let unchecked: [UncheckedPart]

    let objects: [ObjectShape]
    let enums: [EnumShape]
    /// `aps.attributes`: the attributes struct, or ``ValueShape/unchecked(_:)``.
    let attributesRoot: ValueShape
    /// `aps.content-state`: the `ContentState` struct, or ``ValueShape/unchecked(_:)``.
    let contentStateRoot: ValueShape

    init(attributesTypeName: String, objects: [ObjectShape], enums: [EnumShape], unchecked: [UncheckedPart],
         attributesRoot: ValueShape, contentStateRoot: ValueShape) {
        self.attributesTypeName = attributesTypeName
        self.objects = objects
        self.enums = enums
        self.unchecked = unchecked
        self.attributesRoot = attributesRoot
        self.contentStateRoot = contentStateRoot
    }

    /// The JSON keys `aps.content-state` is decoded from, in decoding order (none when it is not checked).
    public var contentStateKeys: [String] { keys(contentStateRoot) }

    /// The JSON keys `aps.attributes` is decoded from (for a `start` event), in decoding order.
    public var attributesKeys: [String] { keys(attributesRoot) }

    private func keys(_ root: ValueShape) -> [String] {
        guard case .object(let index) = root else { return [] }
        return objects[index].fields.map(\.key)
    }

    public var description: String {
        var lines: [String] = []
        var listed = Set<Int>()
        var pending = [(attributesRoot, "aps.attributes"), (contentStateRoot, "aps.content-state")].compactMap { root, origin in
            if case .object(let index) = root { return (index, origin) }
            return nil
        }
        while !pending.isEmpty {
            let (index, origin) = pending.removeFirst()
            guard listed.insert(index).inserted else { continue }
            let object = objects[index]
            lines.append("\(object.typeName)  (\(origin))")
            for field in object.fields {
                let rename = field.key == field.property ? "" : "  (property \(field.property))"
                lines.append("  \"\(field.key)\": \(typeName(field.shape))\(rename)")
                var seenEnums = Set<Int>()
                for nested in nestedObjects(field.shape, seenEnums: &seenEnums) where !listed.contains(nested) {
                    pending.append((nested, object.typeName + "." + field.property))
                }
            }
        }
        for shape in enums {
            switch shape.rawValues {
            case .strings(let values):
                lines.append("\(shape.typeName): String, one of \(values.map { "\"\($0)\"" }.joined(separator: ", "))")
            case .integers(let kind, let values):
                lines.append("\(shape.typeName): \(kind.rawValue), one of \(values.map(\.description).joined(separator: ", "))")
            case .keyed(let cases):
                let spelled = cases.map { entry in
                    "{\"\(entry.name)\": {" + entry.fields.map { "\"\($0.key)\": \(typeName($0.shape))" }.joined(separator: ", ") + "}}"
                }
                lines.append("\(shape.typeName): one of \(spelled.joined(separator: ", "))")
            }
        }
        lines += unchecked.map { "not checked: \($0)" }
        return lines.joined(separator: "\n")
    }

    /// The Swift spelling of a shape, e.g. `[String: Int]?`.
    func typeName(_ shape: ValueShape) -> String {
        switch shape {
        case .string: return "String"
        case .bool: return "Bool"
        case .integer(let kind): return kind.rawValue
        case .double: return "Double"
        case .float: return "Float"
        case .date: return "Date"
        case .url: return "URL"
        case .uuid: return "UUID"
        case .decimal: return "Decimal"
        case .data: return "Data"
        case .optional(let wrapped): return typeName(wrapped) + "?"
        case .array(let element): return "[\(typeName(element))]"
        case .set(let element): return "Set<\(typeName(element))>"
        case .range(let bound, let closed): return "\(closed ? "ClosedRange" : "Range")<\(typeName(bound))>"
        case .unchecked(let index): return unchecked[index].typeName
        case .dictionary(let key, let value): return "[\(key == .string ? "String" : "Int"): \(typeName(value))]"
        case .object(let index): return objects[index].typeName
        case .enumeration(let index): return enums[index].typeName
        }
    }

    /// The structs a shape reaches, through containers and enums' associated values (each enum once).
    private func nestedObjects(_ shape: ValueShape, seenEnums: inout Set<Int>) -> [Int] {
        switch shape {
        case .object(let index): return [index]
        case .optional(let wrapped), .array(let wrapped), .set(let wrapped), .range(let wrapped, _), .dictionary(_, let wrapped):
            return nestedObjects(wrapped, seenEnums: &seenEnums)
        case .enumeration(let index):
            guard seenEnums.insert(index).inserted, case .keyed(let cases) = enums[index].rawValues else { return [] }
            return cases.flatMap { $0.fields.flatMap { nestedObjects($0.shape, seenEnums: &seenEnums) } }
        default: return []
        }
    }
}

/// A part of the model that is not checked, because how it decodes cannot be known from its declaration.
public struct UncheckedPart: Sendable, Equatable, CustomStringConvertible {
    /// The type (`Route`) or property (`ContentState.eta`) as written.
    public let typeName: String
    /// The 1-based line of the model file that decides it.
    public let line: Int
    /// Why: `its own init(from:) decides what it decodes`.
    public let reason: String

    public init(typeName: String, line: Int, reason: String) {
        self.typeName = typeName
        self.line = line
        self.reason = reason
    }

    public var description: String { "\(typeName) (line \(line)): \(reason)" }
}
