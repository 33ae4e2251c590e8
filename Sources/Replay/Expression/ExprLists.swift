/// The list forms: slicing `l[a:b]` and CEL's macros `l.filter(x, p)`, `l.map(x, e)`, `l.exists(x, p)` and
/// `l.all(x, p)`, which bind a name to each item in turn. A macro's name is a slot of ``ExprLocals``, set per
/// item; nothing is looked up by name when it runs.
extension ExprCompiler {
    /// The local named by a one-name `path`, if a macro around it binds that name.
    mutating func local(_ path: [String], column: Int) throws -> ExprNode? {
        guard let slot = locals.lastIndex(where: { $0.name == path[0] }) else { return nil }
        guard path.count == 1 else {
            throw ExprError(column: column, message: "'\(path[0])' is an item of a list, a \(locals[slot].type), which has no field '\(path[1])'")
        }
        return ExprNode(type: locals[slot].type, nullable: locals[slot].type == .dyn, eval: { input in
            (input as! ExprLocals).values[slot]
        }, shown: "'\(path[0])'", constant: nil)
    }

    /// `l.NAME(x, body)`: the receiver, the name it binds, and the body compiled with the name bound.
    mutating func macro(_ name: String, _ args: [ExprSyntax], column: Int) throws -> ExprNode {
        guard args.count == 3 else {
            throw ExprError(column: column, message: "\(name)() is called on a list with a name for each item and "
                + "\(name == "map" ? "a value" : "a condition"), as in tags.\(name)(t, \(name == "map" ? "t + '!'" : "t != 'x'"))")
        }
        let list = try compile(args[0])
        guard let item = list.type == .dyn ? .dyn : list.type.element else {
            throw ExprError(column: column, message: "\(name)() is called on a list, as in tags.\(name)(t, …), found \(list.type)")
        }
        guard case let .path(bound, _) = args[1], bound.count == 1 else {
            throw ExprError(column: args[1].column, message: "\(name)() takes a name for each item first, as in tags.\(name)(t, …)")
        }
        locals.append((bound[0], item))
        defer { locals.removeLast() }
        let body = try compile(args[2])
        if name == "map" {
            guard body.type != .null else { throw ExprError(column: column, message: "map() needs a value for each item, found null") }
        } else if body.type != .bool && body.type != .dyn {
            throw ExprError(column: column, message: "\(name)() needs a condition (a bool) for each item, found \(body.type) (\(body.shown))")
        }
        let type: ExprType = name == "map" ? .list(body.type) : (name == "filter" ? list.type : .bool)
        let run = Self.macroRun(name, list.eval, body.eval, slot: locals.count - 1, listShown: list.shown, column: column)
        return ExprNode(type: type, nullable: false, eval: run, shown: "\(name)(…)", constant: nil)
    }

    /// The evaluation of a macro: the items of `list`, each bound to `slot` while `body` runs.
    private static func macroRun(_ name: String, _ list: @escaping ExprEval, _ body: @escaping ExprEval, slot: Int,
                                 listShown: String, column: Int) -> ExprEval {
        let step: @Sendable (ExprValue, ExprValue, inout [ExprValue]) throws -> Bool? = switch name {
        case "filter": { item, v, out in if try truth(v, name, column) { out.append(item) }; return nil }
        case "map": { _, v, out in
            guard v != .null else { throw ExprFault(column: column, message: "map() found null for an item") }
            out.append(v)
            return nil
        }
        case "exists": { _, v, _ in try truth(v, name, column) ? true : nil }
        default: { _, v, _ in try truth(v, name, column) ? nil : false }
        }
        let done: ExprValue = name == "all" ? .bool(true) : .bool(false)
        let yieldsList = name == "filter" || name == "map"
        return { input in
            guard case let .list(items) = try list(input) else { throw ExprFault(column: column, message: "\(name)() found \(listShown) null") }
            let scope = ExprLocals(input, slot: slot)
            var out: [ExprValue] = []
            // CEL: exists and all decide on the first item that decides; an error elsewhere is reported only
            // when none does.
            var failure: Error?
            for item in items {
                scope.values[slot] = item
                do {
                    if let decided = try step(item, try body(scope), &out) { return .bool(decided) }
                } catch {
                    if yieldsList { throw error }
                    failure = failure ?? error
                }
            }
            if let failure { throw failure }
            return yieldsList ? .list(out) : done
        }
    }

    private static func truth(_ v: ExprValue, _ name: String, _ column: Int) throws -> Bool {
        guard case let .bool(b) = v else { throw ExprFault(column: column, message: "\(name)() found null, not true or false, for an item") }
        return b
    }

    /// `l[a:b]`: the items from index a up to (not including) b; a left out is 0, b left out is the list's size.
    /// A bound past the end stops at the end (`l[1:]` of an empty list is `[]`); a negative one is an error.
    func slice(_ list: ExprNode, _ from: ExprNode?, _ to: ExprNode?, column: Int) throws -> ExprNode {
        guard list.type == .dyn || list.type.element != nil else {
            throw ExprError(column: column, message: "'[…:…]' slices a list, found \(list.type)")
        }
        for bound in [from, to].compactMap({ $0 }) where bound.type != .int && bound.type != .dyn {
            throw ExprError(column: column, message: "a slice's bounds are ints, found \(bound.type) (\(bound.shown))")
        }
        let l = list.eval, a = from?.eval, b = to?.eval, shown = list.shown
        return ExprNode(type: list.type, nullable: false, eval: { input in
            guard case let .list(items) = try l(input) else { throw ExprFault(column: column, message: "'[…:…]' found \(shown) null") }
            let start = try a.map { try Self.sliceBound($0(input), column) } ?? 0, end = try b.map { try Self.sliceBound($0(input), column) } ?? items.count
            let lo = min(start, items.count), hi = min(end, items.count)
            return .list(lo < hi ? Array(items[lo ..< hi]) : [])
        }, shown: "the slice at column \(column)", constant: nil)
    }

    private static func sliceBound(_ v: ExprValue, _ column: Int) throws -> Int {
        guard case let .int(n) = v else { throw ExprFault(column: column, message: "a slice's bound is null") }
        guard n >= 0 else { throw ExprFault(column: column, message: "a slice's bound is \(n), below 0") }
        return n
    }
}

/// The input a macro's body reads: the expression's variables from the input around it, and the items its
/// macros bind, by slot (the outermost macro's is 0).
final class ExprLocals: ExprInput {
    let outer: any ExprInput
    var values: [ExprValue]

    /// A scope for the macro binding `slot`, inside `input` (the expression's input, or an outer macro's scope).
    init(_ input: any ExprInput, slot: Int) {
        let around = input as? ExprLocals
        outer = around?.outer ?? input
        values = Array((around?.values ?? []).prefix(slot)) + [.null]
    }

    func read(_ variable: Int) -> ExprValue { outer.read(variable) }
}
