/// Evaluates a compiled expression for one event (or push): ``ExprInput`` gives its variables' values.
typealias ExprEval = @Sendable (any ExprInput) throws -> ExprValue

/// An expression checked against the names it may use and compiled to closures, once, when the recipe is
/// loaded: nothing is parsed or looked up by name per event.
struct CompiledExpr: Sendable {
    /// The text as written (for messages).
    var text: String
    var type: ExprType
    /// Whether it may evaluate to null.
    var nullable: Bool
    /// The variables it reads (by ``ExprVariable/id``).
    var variables: [Int]
    var eval: ExprEval

    /// Parses, checks and compiles `text`; a mistake is an ``ExprError`` at its column.
    /// `expecting`: the type the place it is written in wants (a kept list field's type), which an empty list
    /// (`[]`) takes when nothing in the expression gives it one.
    static func compile(_ text: String, names: any ExprNames, expecting: ExprType? = nil) throws -> CompiledExpr {
        let syntax = try ExprParser.parse(text)
        var compiler = ExprCompiler(names: names)
        let node = try compiler.compile(syntax)
        var type = node.type
        if let column = compiler.emptyList, type.hasUnknownList {
            guard let expected = expecting, let known = ExprType.unified(type, expected), !known.hasUnknownList else {
                throw ExprError(column: column, message: "'[]' is a list of no known type here: it takes its type from the list it meets, "
                    + "as in 'c ? [] : tags' or 'tags + []'\(expecting.map { $0.element == nil ? ", and \($0) is not a list" : ", not \($0)" } ?? "")")
            }
            type = known
        }
        return CompiledExpr(text: text, type: type, nullable: node.nullable, variables: compiler.variables, eval: node.eval)
    }

    func evaluate(_ input: any ExprInput) throws -> ExprValue { try eval(input) }
}

/// One checked node: its type, whether it may be null, its evaluation, and its value when it is a constant.
struct ExprNode {
    var type: ExprType
    var nullable: Bool
    var eval: ExprEval
    /// How messages name it (`'order.total'`, `the value at column 7`).
    var shown: String
    var constant: ExprValue?
}

/// The type checker and compiler: each syntax node becomes an ``ExprNode`` whose closure calls its operands'.
struct ExprCompiler {
    let names: any ExprNames
    private(set) var variables: [Int] = []
    /// The column of the first empty list literal (`[]`), whose element type comes from where it is used.
    private(set) var emptyList: Int?
    /// The names the macros being compiled bind (`x` in `l.filter(x, x > 0)`), innermost last, each with its
    /// item type; its index is its slot in ``ExprLocals/values``.
    var locals: [(name: String, type: ExprType)] = []

    init(names: any ExprNames) { self.names = names }

    mutating func compile(_ e: ExprSyntax) throws -> ExprNode {
        switch e {
        case let .literal(v, c):
            return ExprNode(type: v.type, nullable: v == .null, eval: { _ in v }, shown: "the value at column \(c)", constant: v)
        case let .list(items, c): return try list(items, column: c)
        case let .path(names, c): return try path(names, column: c)
        case let .unary(op, operand, c): return try unary(op, try compile(operand), column: c)
        case let .binary(op, l, r, c):
            if op == "&&" || op == "||" { return try logical(op, try compile(l), try compile(r), column: c).0 }
            return try binary(op, try compile(l), try compile(r), column: c)
        case let .chain(first, links, _): return try chain(first, links)
        case let .conditional(cond, yes, no, c): return try conditional(try compile(cond), try compile(yes), try compile(no), column: c)
        case let .call(name, args, c):
            switch ExprFunctions.byName[name]?.form {
            case .presence?: return try has(args, column: c)
            case .format?: return try format(args, column: c)
            case .macro?: return try macro(name, args, column: c)
            default: return try call(name, try args.map { try compile($0) }, column: c)
            }
        case let .index(list, i, c): return try index(try compile(list), try compile(i), column: c)
        case let .slice(list, from, to, c):
            return try slice(try compile(list), try from.map { try compile($0) }, try to.map { try compile($0) }, column: c)
        }
    }

    private mutating func path(_ path: [String], column: Int) throws -> ExprNode {
        if let local = try local(path, column: column) { return local }
        let v = try names.variable(path, column: column)
        if !variables.contains(v.id) { variables.append(v.id) }
        let id = v.id
        return ExprNode(type: v.type, nullable: v.nullable, eval: { $0.read(id) }, shown: "'\(path.joined(separator: "."))'", constant: nil)
    }

    private mutating func list(_ items: [ExprSyntax], column: Int) throws -> ExprNode {
        var nodes: [ExprNode] = []
        for item in items { nodes.append(try compile(item)) }
        if items.isEmpty, emptyList == nil { emptyList = column }
        var element: ExprType?
        for n in nodes where n.type != .null {
            guard let t = element else { element = n.type; continue }
            guard let both = ExprType.unified(t, n.type) else {
                throw ExprError(column: column, message: "a list holds one type: found \(t) and \(n.type)")
            }
            element = both
        }
        if nodes.contains(where: { $0.type == .null }), element != nil {
            throw ExprError(column: column, message: "a list of \(element!) cannot hold null")
        }
        let evals = nodes.map(\.eval)
        let type = ExprType.list(element ?? .dyn)
        if nodes.allSatisfy({ $0.constant != nil }) {
            let v = ExprValue.list(nodes.map { $0.constant! })
            return ExprNode(type: type, nullable: false, eval: { _ in v }, shown: "the list at column \(column)", constant: v)
        }
        return ExprNode(type: type, nullable: false, eval: { input in .list(try evals.map { try $0(input) }) },
                        shown: "the list at column \(column)", constant: nil)
    }

    /// `has(x.f)`: whether a field holds a value (CEL's presence test); the argument must be a field selection.
    private mutating func has(_ args: [ExprSyntax], column: Int) throws -> ExprNode {
        guard args.count == 1, case let .path(path, c) = args[0], path.count >= 2 else {
            throw ExprError(column: column, message: "has() takes one field selection, like has(order.status) or has(order.token)")
        }
        let v = try names.variable(path, column: c)
        if !variables.contains(v.id) { variables.append(v.id) }
        let id = v.id
        return ExprNode(type: .bool, nullable: false, eval: { .bool($0.read(id) != .null) }, shown: "has(…)", constant: nil)
    }

    private func conditional(_ cond: ExprNode, _ yes: ExprNode, _ no: ExprNode, column: Int) throws -> ExprNode {
        guard cond.type == .bool || cond.type == .dyn else {
            throw ExprError(column: column, message: "'?' needs a bool before it, found \(cond.type)")
        }
        let type: ExprType
        switch (yes.type, no.type) {
        case let (a, b) where a == b: type = a
        // An empty list takes the other side's type.
        case let (a, b) where ExprType.unified(a, b) != nil: type = ExprType.unified(a, b) ?? a
        case (.null, let b): type = b
        case (let a, .null): type = a
        case (.dyn, _), (_, .dyn): type = .dyn
        default:
            throw ExprError(column: column, message: "the two results of '? :' must have one type, found \(yes.type) and \(no.type)")
        }
        let c = cond.eval, y = yes.eval, n = no.eval, shown = cond.shown
        return ExprNode(type: type, nullable: yes.nullable || no.nullable, eval: { input in
            switch try c(input) {
            case .bool(true): return try y(input)
            case .bool(false): return try n(input)
            default: throw ExprFault(column: column, message: "\(shown) is null, not true or false")
            }
        }, shown: "the result at column \(column)", constant: nil)
    }

    private func index(_ list: ExprNode, _ i: ExprNode, column: Int) throws -> ExprNode {
        guard let element = list.type == .dyn ? .dyn : list.type.element else {
            throw ExprError(column: column, message: "'[…]' indexes a list, found \(list.type)")
        }
        guard i.type == .int || i.type == .dyn else { throw ExprError(column: column, message: "a list's index is an int, found \(i.type)") }
        let l = list.eval, ie = i.eval
        return ExprNode(type: element, nullable: false, eval: { input in
            guard case let .list(items) = try l(input) else { throw ExprFault(column: column, message: "the list is null") }
            guard case let .int(n) = try ie(input), items.indices.contains(n) else {
                throw ExprFault(column: column, message: "index out of range (the list has \(items.count) items)")
            }
            return items[n]
        }, shown: "the item at column \(column)", constant: nil)
    }
}
