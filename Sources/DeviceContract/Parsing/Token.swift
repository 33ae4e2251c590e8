/// One token of Swift source, as far as the model parser needs to tell them apart.
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        /// A name or keyword. A backquoted name (`` `default` ``) is an identifier whose text has no
        /// backquotes and that is never taken as a keyword.
        case identifier
        case number
        /// A string literal. `stringValue` holds its value when it has no interpolation and is
        /// single-line; otherwise nil.
        case string
        /// One punctuation or operator character: `{ } ( ) [ ] < > , : ; = . ? ! @ #` and the rest.
        case punctuation
        case endOfFile
    }

    let kind: Kind
    let text: String
    /// 1-based line of the token's first character.
    let line: Int
    /// True when a line break (or a comment containing one) separates this token from the previous.
    let startsLine: Bool
    /// True for a backquoted identifier.
    let isEscaped: Bool
    let stringValue: String?
    /// 1-based column (in UTF-8 bytes, as the compiler counts) of the token's first character; 0 when unknown.
    var column = 0

    func isPunctuation(_ character: String) -> Bool { kind == .punctuation && text == character }

    /// True for an unescaped identifier spelled `word` (a keyword in that position).
    func isKeyword(_ word: String) -> Bool { kind == .identifier && !isEscaped && text == word }
}
