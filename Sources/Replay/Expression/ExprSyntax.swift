/// An expression as parsed: each node with the column where it starts, for messages.
///
/// A run of operators of one precedence (`a && b && c`, `x + y - z`) is one ``chain`` node holding its operands
/// in a list, evaluated left to right by a loop: a long flat chain nests nothing. The parser bounds the tree
/// (``ExprParser/maxNodes``, ``ExprParser/maxDepth``), so the compiler's recursion over it, and the nesting
/// of the closures it compiles to, stay within a small stack for any input.
indirect enum ExprSyntax: Sendable {
    case literal(ExprValue, column: Int)
    case list([ExprSyntax], column: Int)
    /// A name, or a path of names (`status`, `order.store_id`, `recipient.platform`).
    case path([String], column: Int)
    case unary(String, ExprSyntax, column: Int)
    case binary(String, ExprSyntax, ExprSyntax, column: Int)
    /// Two or more left-associative operators of one precedence: `first op₁ x₁ op₂ x₂ …`.
    case chain(ExprSyntax, [ExprLink], column: Int)
    case conditional(ExprSyntax, ExprSyntax, ExprSyntax, column: Int)
    /// A function call: `size(x)`, `has(x.f)`, or a method call (`x.size()`) with its receiver first.
    case call(String, [ExprSyntax], column: Int)
    case index(ExprSyntax, ExprSyntax, column: Int)
    /// `l[from:to]`, either bound left out (`l[1:]`, `l[:2]`).
    case slice(ExprSyntax, ExprSyntax?, ExprSyntax?, column: Int)

    var column: Int {
        switch self {
        case let .literal(_, c), let .list(_, c), let .path(_, c), let .unary(_, _, c), let .binary(_, _, _, c), let .chain(_, _, c),
             let .conditional(_, _, _, c), let .call(_, _, c), let .index(_, _, c), let .slice(_, _, _, c):
            return c
        }
    }
}

/// One step of a ``ExprSyntax/chain``: the operator at its column and its right operand.
struct ExprLink: Sendable {
    var op: String
    var operand: ExprSyntax
    var column: Int
}
