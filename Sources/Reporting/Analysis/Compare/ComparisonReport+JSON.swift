import Foundation

extension ComparisonReport {
    /// The comparison as JSON: pretty-printed, keys sorted (the `--format json` output).
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
