/// An expression as parsed: each node with the column where it starts, for messages.
indirect enum ExprSyntax: Sendable {
    case literal(ExprValue, column: Int)
    case list([ExprSyntax], column: Int)
    /// A name, or a path of names (`status`, `order.store_id`, `recipient.platform`).
    case path([String], column: Int)
    case unary(String, ExprSyntax, column: Int)
    case binary(String, ExprSyntax, ExprSyntax, column: Int)
    case conditional(ExprSyntax, ExprSyntax, ExprSyntax, column: Int)
    /// A function call: `size(x)`, `has(x.f)`, or a method call (`x.size()`) with its receiver first.
    case call(String, [ExprSyntax], column: Int)
    case index(ExprSyntax, ExprSyntax, column: Int)

    var column: Int {
        switch self {
        case let .literal(_, c), let .list(_, c), let .path(_, c), let .unary(_, _, c), let .binary(_, _, _, c),
             let .conditional(_, _, _, c), let .call(_, _, c), let .index(_, _, c):
            return c
        }
    }
}
