/// An app's ActivityKit model as synthesized `Decodable` sees it: the attributes struct (decoded
/// from `aps.attributes` when a Live Activity is started by push) and its nested `ContentState`
/// (decoded from `aps.content-state` on every update, end and start).
///
/// Build one with ``ModelDeclaration/parse(source:file:attributesType:)``; check payloads with
/// ``PayloadCheck``. `description` lists every decoded key and its Swift type.
public struct ActivityModel: Sendable, CustomStringConvertible {
    /// The attributes type's qualified Swift name, e.g. `LeaveRequestAttributes`.
    public let attributesTypeName: String

    let objects: [ObjectShape]
    let enums: [EnumShape]
    let attributesObject: Int
    let contentStateObject: Int

    init(attributesTypeName: String, objects: [ObjectShape], enums: [EnumShape], attributesObject: Int, contentStateObject: Int) {
        self.attributesTypeName = attributesTypeName
        self.objects = objects
        self.enums = enums
        self.attributesObject = attributesObject
        self.contentStateObject = contentStateObject
    }

    /// The JSON keys `aps.content-state` is decoded from, in decoding order.
    public var contentStateKeys: [String] { objects[contentStateObject].fields.map(\.key) }

    /// The JSON keys `aps.attributes` is decoded from (for a `start` event), in decoding order.
    public var attributesKeys: [String] { objects[attributesObject].fields.map(\.key) }

    public var description: String {
        var lines: [String] = []
        var listed = Set<Int>()
        var pending = [(attributesObject, "aps.attributes"), (contentStateObject, "aps.content-state")]
        while !pending.isEmpty {
            let (index, origin) = pending.removeFirst()
            guard listed.insert(index).inserted else { continue }
            let object = objects[index]
            lines.append("\(object.typeName)  (\(origin))")
            for field in object.fields {
                let rename = field.key == field.property ? "" : "  (property \(field.property))"
                lines.append("  \"\(field.key)\": \(typeName(field.shape))\(rename)")
                for nested in nestedObjects(field.shape) where !listed.contains(nested) {
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
            }
        }
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
        case .optional(let wrapped): return typeName(wrapped) + "?"
        case .array(let element): return "[\(typeName(element))]"
        case .dictionary(let key, let value): return "[\(key == .string ? "String" : "Int"): \(typeName(value))]"
        case .object(let index): return objects[index].typeName
        case .enumeration(let index): return enums[index].typeName
        }
    }

    private func nestedObjects(_ shape: ValueShape) -> [Int] {
        switch shape {
        case .object(let index): return [index]
        case .optional(let wrapped), .array(let wrapped), .dictionary(_, let wrapped): return nestedObjects(wrapped)
        default: return []
        }
    }
}
