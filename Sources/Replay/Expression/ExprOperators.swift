/// The operators: `!` and `-`; `&&` and `||` (which, as in CEL, absorb a failure on either side when the
/// other side decides the result); `+ - * / %`; the relations and `in`. Integer overflow and an integer
/// division or remainder by zero fail, as in CEL; a double follows IEEE 754.
/// One operator applied to its left side's result (a value or a failure), reading its right side.
typealias ExprStep = @Sendable (Result<ExprValue, any Error>, any ExprInput) -> Result<ExprValue, any Error>

extension ExprCompiler {
    func unary(_ op: String, _ x: ExprNode, column: Int) throws -> ExprNode {
        let e = x.eval, shown = x.shown
        if op == "!" {
            guard x.type == .bool || x.type == .dyn else { throw ExprError(column: column, message: "'!' takes a bool, found \(x.type)") }
            return ExprNode(type: .bool, nullable: false, eval: { input in
                guard case let .bool(b) = try e(input) else { throw ExprFault(column: column, message: "\(shown) is null, not true or false") }
                return .bool(!b)
            }, shown: "the result at column \(column)", constant: nil)
        }
        guard x.type.isNumber || x.type == .duration || x.type == .dyn else {
            throw ExprError(column: column, message: "'-' takes an int, a double or a duration, found \(x.type)")
        }
        return ExprNode(type: x.type, nullable: false, eval: { input in
            switch try e(input) {
            case let .int(n):
                guard n != Int.min else { throw ExprFault(column: column, message: "integer overflow in '-'") }
                return .int(-n)
            case let .double(d): return .double(-d)
            case let .duration(ms): return .duration(-ms)
            default: throw ExprFault(column: column, message: "\(shown) is null, not a number")
            }
        }, shown: "the result at column \(column)", constant: nil)
    }

    /// `l op r` for `&&` and `||`, and its step (what a chain's loop runs with the left side already evaluated).
    func logical(_ op: String, _ l: ExprNode, _ r: ExprNode, column: Int) throws -> (ExprNode, ExprStep) {
        for side in [l, r] where side.type != .bool && side.type != .dyn {
            throw ExprError(column: column, message: "'\(op)' takes bools, found \(side.type) (\(side.shown))")
        }
        let re = r.eval, decides = op == "||", lShown = l.shown, rShown = r.shown
        let step: ExprStep = { left, input in
            // CEL: either side that decides the result wins, even when the other failed.
            var failure: Error?
            switch left {
            case let .success(v):
                if v == .bool(decides) { return left }
                if v != .bool(!decides) { failure = ExprFault(column: column, message: "\(lShown) is null, not true or false") }
            case let .failure(error): failure = error
            }
            let v: ExprValue
            do { v = try re(input) } catch { return .failure(error) }
            if v == .bool(decides) { return .success(v) }
            if let failure { return .failure(failure) }
            guard v == .bool(!decides) else { return .failure(ExprFault(column: column, message: "\(rShown) is null, not true or false")) }
            return .success(v)
        }
        return (Self.node(.bool, l, step, column: column), step)
    }

    /// The node of `l op r` that runs `step` after `l`.
    static func node(_ type: ExprType, _ l: ExprNode, _ step: @escaping ExprStep, column: Int) -> ExprNode {
        let le = l.eval
        return ExprNode(type: type, nullable: false, eval: { input in try step(Result { try le(input) }, input).get() },
                        shown: "the result at column \(column)", constant: nil)
    }

    func binary(_ op: String, _ l: ExprNode, _ r: ExprNode, column: Int) throws -> ExprNode {
        switch op {
        case "==", "!=": return try equality(op, l, r, column: column)
        case "<", "<=", ">", ">=": return try relation(op, l, r, column: column)
        case "in": return try membership(l, r, column: column)
        default: return try arithmetic(op, l, r, column: column).0
        }
    }

    private func equality(_ op: String, _ l: ExprNode, _ r: ExprNode, column: Int) throws -> ExprNode {
        guard l.type.comparable(with: r.type) else {
            throw ExprError(column: column, message: "'\(op)' compares \(l.type) with \(r.type): they can never be equal")
        }
        let le = l.eval, re = r.eval, wanted = op == "=="
        return ExprNode(type: .bool, nullable: false, eval: { input in
            .bool(ExprArithmetic.equal(try le(input), try re(input)) == wanted)
        }, shown: "the result at column \(column)", constant: nil)
    }

    private func relation(_ op: String, _ l: ExprNode, _ r: ExprNode, column: Int) throws -> ExprNode {
        let ordered: Set<ExprType> = [.int, .double, .string, .bool, .timestamp, .duration, .dyn]
        guard ordered.contains(l.type), ordered.contains(r.type), l.type.comparable(with: r.type), l.type != .null, r.type != .null else {
            throw ExprError(column: column, message: "'\(op)' orders two numbers, strings, bools, timestamps or durations, found \(l.type) and \(r.type)")
        }
        let le = l.eval, re = r.eval, lShown = l.shown, rShown = r.shown
        let holds: @Sendable (Int) -> Bool
        switch op {
        case "<": holds = { $0 < 0 }
        case "<=": holds = { $0 <= 0 }
        case ">": holds = { $0 > 0 }
        default: holds = { $0 >= 0 }
        }
        return ExprNode(type: .bool, nullable: false, eval: { input in
            let a = try le(input), b = try re(input)
            guard let order = ExprArithmetic.order(a, b) else {
                throw ExprFault(column: column, message: "'\(op)' found \(a == .null ? lShown : rShown) null")
            }
            return .bool(holds(order))
        }, shown: "the result at column \(column)", constant: nil)
    }

    private func membership(_ l: ExprNode, _ r: ExprNode, column: Int) throws -> ExprNode {
        guard case let .list(element) = r.type else { throw ExprError(column: column, message: "'in' needs a list on its right, found \(r.type)") }
        guard l.type.comparable(with: element) else {
            throw ExprError(column: column, message: "'in' looks for \(l.type) in a list of \(element): it can never be there")
        }
        let le = l.eval, re = r.eval
        return ExprNode(type: .bool, nullable: false, eval: { input in
            let v = try le(input)
            guard case let .list(items) = try re(input) else { throw ExprFault(column: column, message: "\(r.shown) is null, not a list") }
            return .bool(items.contains { ExprArithmetic.equal(v, $0) })
        }, shown: "the result at column \(column)", constant: nil)
    }

    /// `l op r` for `+ - * / %`, and its step.
    func arithmetic(_ op: String, _ l: ExprNode, _ r: ExprNode, column: Int) throws -> (ExprNode, ExprStep) {
        guard let type = ExprArithmetic.resultType(op, l.type, r.type) else {
            throw ExprError(column: column, message: "'\(op)' does not apply to \(l.type) and \(r.type); it takes \(ExprArithmetic.takes(op))")
        }
        let re = r.eval, lShown = l.shown, rShown = r.shown, work = ExprArithmetic.bound(op, l.type, r.type, column: column)
        let step: ExprStep = { left, input in
            Result {
                let a = try left.get(), b = try re(input)
                if a == .null || b == .null { throw ExprFault(column: column, message: "'\(op)' found \(a == .null ? lShown : rShown) null") }
                return try work(a, b)
            }
        }
        return (Self.node(type, l, step, column: column), step)
    }

    /// A chain of operators of one precedence, `x₀ op₁ x₁ op₂ x₂ …`: each step checked and typed as
    /// `((x₀ op₁ x₁) op₂ x₂) …` is, and evaluated by one loop, so that its length nests no call.
    mutating func chain(_ first: ExprSyntax, _ links: [ExprLink]) throws -> ExprNode {
        var left = try compile(first)
        let start = left.eval
        var steps: [ExprStep] = []
        steps.reserveCapacity(links.count)
        for link in links {
            let right = try compile(link.operand)
            let (node, step) = link.op == "&&" || link.op == "||"
                ? try logical(link.op, left, right, column: link.column) : try arithmetic(link.op, left, right, column: link.column)
            steps.append(step)
            left = node
        }
        let all = steps
        return ExprNode(type: left.type, nullable: false, eval: { input in
            var value = Result { try start(input) }
            for step in all { value = step(value, input) }
            return try value.get()
        }, shown: left.shown, constant: nil)
    }
}
