@testable import Replay

/// An expression compiled against these names and, for ``evaluate(_:)`` and ``fault(_:)``, evaluated on their
/// values: what the expression tests ask of a text.
extension TestExprNames {
    /// The value of `text`; throws what compiling or evaluating it throws.
    func evaluate(_ text: String) throws -> ExprValue {
        try CompiledExpr.compile(text, names: self).evaluate(self)
    }

    /// The error compiling `text` (to a value of type `expecting`, when given) gives; nil when it compiles.
    func refusal(_ text: String, expecting: ExprType? = nil) -> ExprError? {
        do { _ = try CompiledExpr.compile(text, names: self, expecting: expecting); return nil } catch { return error as? ExprError }
    }

    /// The fault evaluating `text` gives; nil when it evaluates (or fails to compile).
    func fault(_ text: String) -> ExprFault? {
        do { _ = try evaluate(text); return nil } catch { return error as? ExprFault }
    }
}
