/// Reads an app's ActivityKit model file (Swift source) into an ``ActivityKitModel``.
public enum ModelDeclaration {
    /// Parses `source` and returns the model rooted at the attributes struct.
    ///
    /// - Parameters:
    ///   - source: the Swift file's text, as the app has it.
    ///   - file: the name used in errors (`file:line: message`).
    ///   - attributesType: the attributes struct's name (dotted for a nested one). When nil, the one
    ///     struct declaring `ActivityAttributes` conformance is used.
    ///   - conditions: the build `#if` blocks are evaluated for; by default an iPhone's Release build.
    /// - Throws: ``ModelError`` for a syntax error, for a `#if` condition that cannot be known, and for
    ///   declarations from which the compiler could not synthesize `Decodable`. What the file holds beside
    ///   the model (views, previews, macros, extensions, other types) is read past; a part of the model whose
    ///   decoding cannot be known is listed in ``ActivityKitModel/unchecked``, not refused.
    ///
    /// The declarations read and the decoding rules applied are listed on ``DeclarationParser`` and
    /// ``ModelResolver``.
    public static func parse(source: String, file: String, attributesType: String? = nil,
                             conditions: CompilationConditions = .iPhoneRelease) throws(ModelError) -> ActivityKitModel {
        let tree = try DeclarationParser.parse(source: source, file: file, conditions: conditions)
        var resolver = ModelResolver(tree: tree, file: file)
        return try resolver.resolve(attributesType: attributesType)
    }
}
