import APNsCore
import Foundation

extension DifferOn {
    /// The configuration fields a report.json can hold, as `configuration.a.b` paths: every run setting's
    /// (``RunSettings``, set or not) and every field `configurations` hold (a list's places left out).
    public static func knownFields(_ configurations: [RunConfig]) -> [String] {
        var known = Set(RunSettings.all.map { "configuration." + $0.reportPath })
        for c in configurations {
            for leaf in ConfigValue.leaves(of: c) { known.insert("configuration." + Comparability.withoutPlaces(leaf.path)) }
        }
        return known.sorted()
    }

    /// Throws ``DifferOnFieldError`` for the first of `fields` (``fields(_:)``) that is not a field of the
    /// configuration, nor a section holding some, nor under a free-form one (`configuration.simulator.settings`).
    public static func check(_ fields: [String], against configurations: [RunConfig]) throws {
        let known = knownFields(configurations)
        for field in fields {
            let path = field.hasSuffix(".") ? String(field.dropLast()) : field
            let plain = Comparability.withoutPlaces(path)
            let found = known.contains { k in
                k == plain || k.hasPrefix(plain + ".") || plain.hasPrefix(k + ".") && freeForm.contains(k)
            }
            if !found { throw DifferOnFieldError(field: field, known: known) }
        }
    }

    /// Fields whose value is an object of the user's own keys (an APNs model's settings): any path under them is one.
    static let freeForm = ["configuration.simulator.settings"]
}

/// A `--differ-on` path that is no field of report.json's configuration, with the closest one and the fields
/// of the nearest section that exists.
public struct DifferOnFieldError: Error, CustomStringConvertible {
    public let field: String
    public let known: [String]

    public var description: String {
        var section = field.hasSuffix(".") ? String(field.dropLast()) : field
        var siblings: [String] = []
        while siblings.isEmpty, let dot = section.lastIndex(of: ".") {
            section = String(section[..<dot])
            let prefix = section + "."
            siblings = Array(Set(known.filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count).prefix { $0 != "." }) })).sorted()
        }
        let has = siblings.isEmpty ? "" : " (\(section) has \(siblings.joined(separator: ", ")))"
        return "--differ-on: '\(field)' is not a field of report.json's configuration\(NameSuggestion.phrase(for: field, among: known))\(has)"
    }
}
