/// Evaluates one `#if`/`#elseif` condition for the device's build (``CompilationConditions``): `!`, `&&`,
/// `||`, parentheses, `true`/`false`, flags and the platform tests. An answer that cannot be known stays
/// unknown through `&&`/`||` unless the other side decides it; an unknown result is an error naming the
/// first unknown test.
struct ConditionEvaluator {
    private enum Truth {
        case yes, no
        /// Not known for the device's build: what cannot be known, and how to make it known.
        case unknown(String)

        init(_ value: Bool) { self = value ? .yes : .no }
    }

    let conditions: CompilationConditions
    let file: String
    private var tokens: [Token] = []
    private var position = 0
    private var line = 0

    init(conditions: CompilationConditions, file: String) {
        self.conditions = conditions
        self.file = file
    }

    mutating func evaluate(_ condition: [Token], line: Int) throws(ModelError) -> Bool {
        tokens = condition
        position = 0
        self.line = line
        guard !tokens.isEmpty else { throw error("#if without a condition") }
        let truth = try disjunction()
        guard position == tokens.count else { throw error("unexpected '\(tokens[position].text)' in a #if condition") }
        switch truth {
        case .yes: return true
        case .no: return false
        case .unknown(let what): throw error("#if: \(what)")
        }
    }

    // MARK: Grammar

    private mutating func disjunction() throws(ModelError) -> Truth {
        var result = try conjunction()
        while accept("|", "|") {
            let right = try conjunction()
            switch (result, right) {
            case (.yes, _), (_, .yes): result = .yes
            case (.unknown, _): break
            case (.no, _): result = right
            }
        }
        return result
    }

    private mutating func conjunction() throws(ModelError) -> Truth {
        var result = try unary()
        while accept("&", "&") {
            let right = try unary()
            switch (result, right) {
            case (.no, _), (_, .no): result = .no
            case (.unknown, _): break
            case (.yes, _): result = right
            }
        }
        return result
    }

    private mutating func unary() throws(ModelError) -> Truth {
        if accept("!") {
            switch try unary() {
            case .yes: return .no
            case .no: return .yes
            case .unknown(let what): return .unknown(what)
            }
        }
        if accept("(") {
            let inner = try disjunction()
            guard accept(")") else { throw error("expected ')' in a #if condition") }
            return inner
        }
        return try test()
    }

    private mutating func test() throws(ModelError) -> Truth {
        guard position < tokens.count, tokens[position].kind == .identifier else {
            throw error("expected a condition after #if, found '\(position < tokens.count ? tokens[position].text : "end of line")'")
        }
        let name = tokens[position].text
        position += 1
        guard position < tokens.count, tokens[position].isPunctuation("("), !tokens[position].startsLine else {
            return flag(name)
        }
        position += 1
        let start = position
        var depth = 1
        while position < tokens.count {
            if tokens[position].isPunctuation("(") { depth += 1 }
            if tokens[position].isPunctuation(")") { depth -= 1 }
            if depth == 0 { break }
            position += 1
        }
        guard position < tokens.count else { throw error("expected ')' after \(name)(") }
        let arguments = Array(tokens[start..<position])
        position += 1
        return try platformTest(name, arguments)
    }

    // MARK: Tests

    private func flag(_ name: String) -> Truth {
        switch name {
        case "true": return .yes
        case "false": return .no
        default: break
        }
        if let flags = conditions.flags { return Truth(flags.contains(name)) }
        if name == "DEBUG" { return .no }
        return .unknown("whether the app's build sets the flag '\(name)' cannot be known; set \(conditions.flagsSetting) to the flags "
            + "the app's Release build sets (e.g. [\(name)], or [] for none)")
    }

    private func platformTest(_ name: String, _ arguments: [Token]) throws(ModelError) -> Truth {
        let word = arguments.first.map(\.text) ?? ""
        let spelled = "\(name)(\(arguments.map(\.text).joined()))"
        switch name {
        case "os":
            guard CompilationConditions.operatingSystems.contains(word) else { throw error("unknown operating system in \(spelled)") }
            return Truth(word == "iOS")
        case "arch": return Truth(word == "arm64")
        case "targetEnvironment": return .no
        case "_endian": return Truth(word == "little")
        case "_pointerBitWidth": return Truth(word == "_64")
        case "_runtime": return Truth(word == "_Native")
        case "canImport": return canImport(arguments, spelled: spelled)
        case "swift": return try versionTest(arguments, CompilationConditions.languageVersions, spelled: spelled, what: "the app's Swift language mode")
        case "compiler":
            return try versionTest(arguments, CompilationConditions.compilerVersions, spelled: spelled, what: "the Xcode version the app is built with")
        default: return .unknown("\(spelled) cannot be known for the app's build")
        }
    }

    private func canImport(_ arguments: [Token], spelled: String) -> Truth {
        var module = ""
        for token in arguments {
            if token.isPunctuation(",") { break }
            module += token.text
        }
        let root = String(module.split(separator: ".").first ?? "")
        if CompilationConditions.otherPlatformModules.contains(root) { return .no }
        let versioned = arguments.contains { $0.isPunctuation(",") }
        if !versioned, CompilationConditions.iOSModules.contains(root) || conditions.importableModules.contains(module) { return .yes }
        return .unknown("\(spelled) cannot be known: \(module) is not an iOS SDK module this checker knows")
    }

    /// `swift(>=5.9)`, `compiler(<6.1)`: known when every candidate version gives the same answer.
    private func versionTest(_ arguments: [Token], _ candidates: [[Int]], spelled: String, what: String) throws(ModelError) -> Truth {
        let text = arguments.map(\.text).joined()
        let atLeast: Bool
        let number: Substring
        if text.hasPrefix(">=") {
            atLeast = true
            number = text.dropFirst(2)
        } else if text.hasPrefix("<") {
            atLeast = false
            number = text.dropFirst(1)
        } else {
            throw error("\(spelled) must compare with >= or <")
        }
        let parts = number.split(separator: ".").map { Int($0) }
        guard !parts.isEmpty, parts.count <= 5, parts.allSatisfy({ $0 != nil }) else { throw error("\(spelled) needs a version such as 5.9") }
        let version = parts.map { $0! }
        let answers = Set(candidates.map { candidate in Self.compare(candidate, version) >= 0 ? atLeast : !atLeast })
        guard answers.count == 1, let answer = answers.first else {
            return .unknown("\(spelled) depends on \(what), which cannot be known here")
        }
        return Truth(answer)
    }

    /// Component-wise comparison, missing components read as 0.
    static func compare(_ a: [Int], _ b: [Int]) -> Int {
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : 0
            let y = index < b.count ? b[index] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    // MARK: Tokens

    private mutating func accept(_ texts: String...) -> Bool {
        guard position + texts.count <= tokens.count else { return false }
        for (offset, text) in texts.enumerated() where !tokens[position + offset].isPunctuation(text) { return false }
        position += texts.count
        return true
    }

    private func error(_ message: String) -> ModelError {
        ModelError(file: file, line: line, message: message)
    }
}
