#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Ranges and enums without a raw type, checked as their synthesized `Decodable` reads them.
extension PayloadWalker {
    // MARK: Ranges

    /// `[lower, upper]`: two bounds (more elements are not read), the lower not above the upper.
    mutating func checkRange(_ index: Int, _ bound: ValueShape, _ shape: ValueShape) {
        let count = nodes[index].count
        let before = failures.count
        var cursor = index + 1
        var bounds: [Int] = []
        for position in 0..<2 {
            path.append(.index(position))
            if position < count {
                checkValue(cursor, bound)
                bounds.append(cursor)
                cursor = nodes[cursor].next
            } else if position == count {
                fail(.missingKey, "expected \(model.typeName(shape)) as [lower, upper], found \(count) element\(count == 1 ? "" : "s")")
            }
            path.removeLast()
        }
        guard failures.count == before, bounds.count == 2, let order = compareBounds(bounds[0], bounds[1], bound), order > 0 else { return }
        fail(.invalidValue, "expected \(model.typeName(shape)), found [\(describe(bounds[0])), \(describe(bounds[1]))], "
            + "whose lower bound is above its upper bound")
    }

    /// -1, 0 or 1 as the two bounds (each already found valid) compare; nil when they cannot be read.
    private func compareBounds(_ first: Int, _ second: Int, _ bound: ValueShape) -> Int? {
        switch bound {
        case .integer(let kind):
            guard case .value(let a) = JSONNumber.integer(bytes, nodes[first], as: kind),
                  case .value(let b) = JSONNumber.integer(bytes, nodes[second], as: kind) else { return nil }
            return Self.order(a, b)
        case .float:
            return Self.order(Float(numberText(first)), Float(numberText(second)))
        case .decimal:
            return Self.order(FoundationValues.decimal(numberText(first)), FoundationValues.decimal(numberText(second)))
        case .date where dateStrategy == .iso8601:
            return Self.order(dateText(first).flatMap(FoundationValues.iso8601Date), dateText(second).flatMap(FoundationValues.iso8601Date))
        case .double, .date:
            return Self.order(Double(numberText(first)), Double(numberText(second)))
        default:
            return nil
        }
    }

    private func dateText(_ index: Int) -> String? {
        JSONString.decode(bytes, nodes[index]).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func order<T: Comparable>(_ a: T?, _ b: T?) -> Int? {
        guard let a, let b else { return nil }
        return a < b ? -1 : (a == b ? 0 : 1)
    }

    private static func order(_ a: IntegerValue, _ b: IntegerValue) -> Int {
        if a.negative != b.negative { return a.negative ? -1 : 1 }
        if a.magnitude == b.magnitude { return 0 }
        return (a.magnitude < b.magnitude) != a.negative ? -1 : 1
    }

    // MARK: Enums without a raw type

    /// `{"case": {…}}`: exactly one key naming a case (other keys are not read), whose value is an object
    /// holding the case's associated values by label, or `_0`, `_1`, … where unlabeled.
    mutating func checkKeyedEnum(_ index: Int, _ shape: EnumShape, _ cases: [EnumShape.KeyedCase]) {
        let node = nodes[index]
        let names = cases.map { "\"\($0.name)\"" }.joined(separator: ", ")
        guard node.kind == .object else {
            return fail(.typeMismatch, "expected \(shape.typeName) (an object whose one key is a case: \(names)), found \(describe(index))")
        }
        guard keysAreValid(index) else { return }
        var named: [Int] = []
        var cursor = index + 1
        for _ in 0..<node.count {
            if let found = cases.firstIndex(where: { keyMatches(cursor, $0.nameUTF8, isASCII: $0.nameIsASCII) }), !named.contains(found) {
                named.append(found)
            }
            cursor = nodes[cursor + 1].next
        }
        guard named.count == 1, let entry = named.first.map({ cases[$0] }),
              let value = member(entry.nameUTF8, isASCII: entry.nameIsASCII, in: index) else {
            let found = named.isEmpty
                ? "no key naming a case" : "\(named.count) keys naming cases (" + named.map { cases[$0].name }.joined(separator: ", ") + ")"
            return fail(.typeMismatch, "expected \(shape.typeName) as an object with exactly one key naming its case (\(names)), found \(found)")
        }
        path.append(.key(entry.name))
        defer { path.removeLast() }
        let valueNode = nodes[value]
        guard valueNode.kind == .object else {
            let reason: DecodeFailure.Reason = valueNode.kind == .null ? .nullForNonOptional : .typeMismatch
            return fail(reason, "expected the values of case \(entry.name) as an object "
                + "(\(entry.fields.isEmpty ? "{}" : entry.fields.map { "\"\($0.key)\"" }.joined(separator: ", "))), found \(describe(value))")
        }
        guard keysAreValid(value) else { return }
        checkFields(value, entry.fields)
    }
}
