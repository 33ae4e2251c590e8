/// A model file that cannot be read as an ActivityKit model: a syntax error, a declaration outside
/// the supported Swift subset, or a declaration the Swift compiler itself would reject for `Codable`.
///
/// `line` is 1-based; `description` reads `file:line: message`, like a compiler diagnostic.
public struct ModelError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file name given to ``ModelDeclaration/parse(source:file:attributesType:)``.
    public let file: String
    /// The 1-based line the problem was found on.
    public let line: Int
    /// What is wrong, in one sentence.
    public let message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }
}
