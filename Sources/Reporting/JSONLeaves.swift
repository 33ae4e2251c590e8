import Foundation

/// Any JSON value, for walking an encoded value generically (the configuration, as the HTML report shows it
/// and as compare checks it key by key).
enum JSONValue: Decodable {
    case null, bool(Bool), int(Int), double(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// `value` encoded as JSON, flattened to `a.b[0].c` paths, keys sorted; a null (and, with
    /// `emptyContainers`, an empty object or array) is a leaf whose value is nil. Every field shows,
    /// including ones added after the caller was written.
    static func leaves<T: Encodable>(of value: T, emptyContainers: Bool = true) -> [(path: String, value: String?)] {
        guard let data = try? JSONEncoder().encode(value), let json = try? JSONDecoder().decode(JSONValue.self, from: data) else { return [] }
        var out: [(path: String, value: String?)] = []
        func walk(_ path: String, _ v: JSONValue) {
            switch v {
            case .object(let fields):
                if fields.isEmpty && emptyContainers { out.append((path, nil)) }
                for key in fields.keys.sorted() { walk(path.isEmpty ? key : path + "." + key, fields[key]!) }
            case .array(let items):
                if items.isEmpty && emptyContainers { out.append((path, nil)) }
                for (i, item) in items.enumerated() { walk("\(path)[\(i)]", item) }
            case .null: out.append((path, nil))
            case .bool(let b): out.append((path, b ? "true" : "false"))
            case .int(let n): out.append((path, String(n)))
            case .double(let d): out.append((path, d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)))
            case .string(let s): out.append((path, s))
            }
        }
        walk("", json)
        return out
    }
}
