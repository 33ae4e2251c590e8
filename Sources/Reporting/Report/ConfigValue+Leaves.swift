import APNsCore
import Foundation

extension ConfigValue {
    /// `value` encoded as JSON and read back as a ``ConfigValue``, flattened to `a.b[0].c` paths, keys
    /// sorted; a null (and, with `emptyContainers`, an empty object or array) is a leaf whose value is nil.
    /// Every field shows, including ones added after the caller was written: the configuration as the HTML
    /// report shows it and as compare checks it key by key.
    static func leaves<T: Encodable>(of value: T, emptyContainers: Bool = true) -> [(path: String, value: String?)] {
        guard let data = try? JSONEncoder().encode(value), let json = try? JSONDecoder().decode(ConfigValue.self, from: data) else { return [] }
        var out: [(path: String, value: String?)] = []
        func walk(_ path: String, _ v: ConfigValue) {
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
