/// The operators: `!` and `-`; `&&` and `||` (which, as in CEL, absorb a failure on either side when the
/// other side decides the result); `+ - * / %`; the relations and `in`. Integer overflow and an integer
/// division or remainder by zero fail, as in CEL; a double follows IEEE 754.
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

    func logical(_ op: String, _ l: ExprNode, _ r: ExprNode, column: Int) throws -> ExprNode {
        for side in [l, r] where side.type != .bool && side.type != .dyn {
            throw ExprError(column: column, message: "'\(op)' takes bools, found \(side.type) (\(side.shown))")
        }
        let le = l.eval, re = r.eval, decides = op == "||"
        return ExprNode(type: .bool, nullable: false, eval: { input in
            // CEL: either side that decides the result wins, even when the other failed.
            var failure: Error?
            do {
                let v = try le(input)
                if v == .bool(decides) { return v }
                if v != .bool(!decides) { failure = ExprFault(column: column, message: "\(l.shown) is null, not true or false") }
            } catch { failure = error }
            let v = try re(input)
            if v == .bool(decides) { return v }
            if let failure { throw failure }
            guard v == .bool(!decides) else { throw ExprFault(column: column, message: "\(r.shown) is null, not true or false") }
            return v
        }, shown: "the result at column \(column)", constant: nil)
    }

    func binary(_ op: String, _ l: ExprNode, _ r: ExprNode, column: Int) throws -> ExprNode {
        switch op {
        case "==", "!=": return try equality(op, l, r, column: column)
        case "<", "<=", ">", ">=": return try relation(op, l, r, column: column)
        case "in": return try membership(l, r, column: column)
        default: return try arithmetic(op, l, r, column: column)
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
        let le = l.eval, re = r.eval
        return ExprNode(type: .bool, nullable: false, eval: { input in
            let a = try le(input), b = try re(input)
            guard let order = ExprArithmetic.order(a, b) else {
                throw ExprFault(column: column, message: "'\(op)' found \(a == .null ? l.shown : r.shown) null")
            }
            switch op {
            case "<": return .bool(order < 0)
            case "<=": return .bool(order <= 0)
            case ">": return .bool(order > 0)
            default: return .bool(order >= 0)
            }
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

    private func arithmetic(_ op: String, _ l: ExprNode, _ r: ExprNode, column: Int) throws -> ExprNode {
        guard let type = ExprArithmetic.resultType(op, l.type, r.type) else {
            throw ExprError(column: column, message: "'\(op)' does not apply to \(l.type) and \(r.type); it takes \(ExprArithmetic.takes(op))")
        }
        let le = l.eval, re = r.eval
        let node = ExprNode(type: type, nullable: false, eval: { input in
            let a = try le(input), b = try re(input)
            if a == .null || b == .null { throw ExprFault(column: column, message: "'\(op)' found \(a == .null ? l.shown : r.shown) null") }
            return try ExprArithmetic.apply(op, a, b, column: column)
        }, shown: "the result at column \(column)", constant: nil)
        return node
    }
}
