/// A model file that cannot be read as an ActivityKit model: a syntax error, a declaration outside
/// the supported Swift subset, or a declaration the Swift compiler itself would reject for `Codable`.
///
/// `line` is 1-based; `description` reads `file:line: message`, or `file:line:column: message` for a syntax
/// error at a token, like a compiler diagnostic.
public struct ModelError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file name given to ``ModelDeclaration/parse(source:file:attributesType:)``.
    public let file: String
    /// The 1-based line the problem was found on.
    public let line: Int
    /// What is wrong, in one sentence.
    public let message: String
    /// The 1-based column of a syntax error's token (UTF-8 bytes); nil when the problem is a declaration's.
    public let column: Int?

    public init(file: String, line: Int, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "\(file):\(line):\(column.map { "\($0): " } ?? " ")\(message)" }
}
