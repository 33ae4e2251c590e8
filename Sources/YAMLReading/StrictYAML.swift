import APNsCore
import Foundation
import Yams

/// The one strict YAML reader for profiles and simulator configuration files: a value is typed as YAML's
/// schema resolves it (`Yams.load`'s: `5` a number, `"5"` and `five` strings, `true` a bool, `~` null),
/// and every error names the file, the line and the key path (`faults.latency.fixed_ms`, `mix[1].stream`)
/// through the caller's own error type.
public enum StrictYAML {
    /// A value in a file: its key path, the line of its key (of the value itself for a list item) and its node.
    public struct Entry {
        /// The key itself (the last component of `path`; empty for a list item and the top level).
        public var key = ""
        public var path: String
        public var line: Int?
        public var node: Node

        public init(key: String = "", path: String, line: Int?, node: Node) {
            self.key = key
            self.path = path
            self.line = line
            self.node = node
        }
    }

    /// A mapping's entries in file order, and by key (a key given twice: the last one, as YAML loaders do).
    public struct Mapping {
        public var entries: [Entry]
        public subscript(key: String) -> Entry? { entries.last { $0.key == key } }
    }

    /// Typed access with errors that name the file, the line and the key path.
    public struct Reader {
        public let file: String
        /// Makes the caller's error from the file, the line, the key path ("" for the whole document) and what is wrong.
        let error: (_ file: String, _ line: Int?, _ path: String, _ message: String) -> Error

        public init(file: String, error: @escaping (_ file: String, _ line: Int?, _ path: String, _ message: String) -> Error) {
            self.file = file
            self.error = error
        }

        /// The document's root (at key path `path`), nil for an empty one; a syntax error names its line,
        /// and `syntaxPath` as its key path.
        public func document(_ yaml: String, path: String = "", syntaxPath: String = "") throws -> Entry? {
            let root: Node?
            do { root = try Yams.compose(yaml: yaml) } catch {
                let (line, message) = YAMLSyntaxMessage.explain(error, yaml: yaml)
                throw self.error(file, line, syntaxPath, message)
            }
            return root.map { Entry(path: path, line: $0.mark?.line, node: $0) }
        }

        /// The line a YAML syntax error names, if any.
        static func line(of error: Error) -> Int? {
            guard let e = error as? YamlError else { return nil }
            switch e {
            case let .scanner(_, _, mark, _), let .parser(_, _, mark, _), let .composer(_, _, mark, _): return mark.line
            default: return nil
            }
        }

        public func fail(_ e: Entry, _ message: String) -> Error { error(file, e.line, e.path, message) }

        /// What a scalar is as `Yams.load` gives it (String, Int, Double, Bool, NSNull, …); nil for a mapping or a list.
        private func scalar(_ e: Entry) -> Any? {
            guard case .scalar = e.node else { return nil }
            return e.node.any
        }

        /// The value as a message shows it.
        public func found(_ e: Entry) -> String {
            switch e.node {
            case let .scalar(s): return "'\(s.string)'"
            case .mapping: return "a mapping"
            case .sequence: return "a list"
            case .alias: return "an alias"
            }
        }

        public func map(_ e: Entry) throws -> Mapping {
            guard case let .mapping(m) = e.node else { throw fail(e, "must be a mapping of keys to values, found \(found(e))") }
            var entries: [Entry] = []
            for (k, v) in m {
                guard case let .scalar(key) = k else { throw error(file, k.mark?.line, e.path, "has a key that is not a string") }
                entries.append(Entry(key: key.string, path: e.path.isEmpty ? key.string : "\(e.path).\(key.string)", line: k.mark?.line, node: v))
            }
            return Mapping(entries: entries)
        }

        public func list(_ e: Entry) throws -> [Entry] {
            guard case let .sequence(s) = e.node else { throw fail(e, "must be a list, found \(found(e))") }
            return s.enumerated().map { i, node in Entry(path: "\(e.path)[\(i)]", line: node.mark?.line ?? e.line, node: node) }
        }

        /// Refuses a key not in `known`, naming it, its line and the closest known key.
        public func only(_ m: Mapping, _ known: [String]) throws {
            for e in m.entries where !known.contains(e.key) {
                throw fail(e, "is not a known key (known: \(known.joined(separator: ", ")))\(NameSuggestion.phrase(for: e.key, among: known))")
            }
        }

        public func isNull(_ e: Entry) -> Bool { scalar(e) is NSNull }

        /// A string scalar (`five`, `"5"`), not empty.
        public func string(_ e: Entry) throws -> String {
            guard let s = scalar(e) as? String, !s.isEmpty else { throw fail(e, "must be a non-empty string, found \(found(e))") }
            return s
        }

        /// Any scalar's text, not empty (`5` is "5"): for names and paths, which may look like numbers.
        public func text(_ e: Entry) throws -> String {
            guard case let .scalar(s) = e.node, !s.string.isEmpty else { throw fail(e, "must be a non-empty string") }
            return s.string
        }

        public func bool(_ e: Entry) throws -> Bool {
            guard let b = scalar(e) as? Bool else { throw fail(e, "must be true or false, found \(found(e))") }
            return b
        }

        /// An integer (`4`, or `4.0`).
        public func int(_ e: Entry) throws -> Int {
            let v = scalar(e)
            guard !(v is Bool), let n = (v as? Int) ?? (v as? Double).flatMap({ $0 == $0.rounded() ? Int(exactly: $0) : nil }) else {
                throw fail(e, "must be an integer, found \(found(e))")
            }
            return n
        }

        public func int(_ e: Entry, _ range: ClosedRange<Int>) throws -> Int {
            let n = try int(e)
            guard range.contains(n) else { throw fail(e, "must be between \(range.lowerBound) and \(range.upperBound), found \(n)") }
            return n
        }

        public func number(_ e: Entry) throws -> Double {
            let v = scalar(e)
            guard !(v is Bool), let n = (v as? Double) ?? (v as? Int).map(Double.init) else { throw fail(e, "must be a number, found \(found(e))") }
            return n
        }

        public func number(_ e: Entry, _ range: ClosedRange<Double>) throws -> Double {
            let n = try number(e)
            guard range.contains(n) else { throw fail(e, "must be between \(range.lowerBound) and \(range.upperBound), found \(n)") }
            return n
        }

        /// The value as JSON, each scalar typed as above; an alias is refused (write the value out).
        public func value(_ e: Entry) throws -> ConfigValue {
            switch e.node {
            case .scalar:
                switch scalar(e) {
                case is NSNull: return .null
                case let b as Bool: return .bool(b)
                case let i as Int: return .int(i)
                case let d as Double: return .double(d)
                default: return .string(e.node.string ?? "")
                }
            case .sequence: return .array(try list(e).map(value))
            case .mapping:
                var object: [String: ConfigValue] = [:]
                for entry in try map(e).entries { object[entry.key] = try value(entry) }
                return .object(object)
            case .alias: throw fail(e, "uses a YAML alias; write the value out")
            }
        }
    }
}
