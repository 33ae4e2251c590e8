/// Reads an app's ActivityKit model file (Swift source) into an ``ActivityModel``.
public enum ModelDeclaration {
    /// Parses `source` and returns the model rooted at the attributes struct.
    ///
    /// - Parameters:
    ///   - source: the Swift file's text.
    ///   - file: the name used in errors (`file:line: message`).
    ///   - attributesType: the attributes struct's name (dotted for a nested one). When nil, the one
    ///     struct declaring `ActivityAttributes` conformance is used.
    /// - Throws: ``ModelError`` for a syntax error, for anything outside the supported subset, and for
    ///   declarations from which the compiler could not synthesize `Decodable`. Nothing outside the
    ///   subset is skipped silently, except function, initializer and computed-property bodies.
    ///
    /// The subset and the decoding rules applied are listed on ``DeclarationParser`` and
    /// ``ModelResolver``.
    public static func parse(source: String, file: String, attributesType: String? = nil) throws(ModelError) -> ActivityModel {
        let tree = try DeclarationParser.parse(source: source, file: file)
        var resolver = ModelResolver(tree: tree, file: file)
        return try resolver.resolve(attributesType: attributesType)
    }
}
