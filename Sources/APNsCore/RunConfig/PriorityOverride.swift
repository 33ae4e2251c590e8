/// `apns-priority` laid over the pushes in a scope whatever their events chose: the tuning knob that reaches
/// every push (``RunConfig/Payload/priority`` only sets the priority of pushes whose events choose none).
/// Written `PRIORITY` (every push) or `PRIORITY:SCOPE`, where the scope is `all` or a push type
/// (`liveactivity`: the Live Activity pushes only).
public struct PriorityOverride: Codable, Equatable, Sendable, CustomStringConvertible {
    /// Which pushes it reaches.
    public enum Scope: Codable, Equatable, Sendable {
        case all
        case pushType(PushType)
    }

    public var priority: Priority
    public var scope: Scope

    public init(priority: Priority, scope: Scope = .all) {
        self.priority = priority
        self.scope = scope
    }

    /// `5`, `5:liveactivity`; refused text names the forms.
    public init(text: String) throws(PriorityOverrideError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = parts.first, let p = Int(first).flatMap(Priority.init(rawValue:)) else {
            throw PriorityOverrideError(text: text, problem: "must start with 1, 5 or 10")
        }
        priority = p
        guard parts.count == 2 else {
            scope = .all
            return
        }
        if parts[1] == "all" {
            scope = .all
        } else if let type = PushType(rawValue: parts[1]) {
            scope = .pushType(type)
        } else {
            let types = PushType.allCases.map(\.rawValue).joined(separator: ", ")
            throw PriorityOverrideError(text: text, problem: "has the scope '\(parts[1])': the scope is all or a push type (\(types))")
        }
    }

    public var description: String {
        switch scope {
        case .all: return "\(priority.rawValue)"
        case let .pushType(t): return "\(priority.rawValue):\(t.rawValue)"
        }
    }

    /// Whether pushes of `pushType` are in its scope.
    public func reaches(_ pushType: PushType) -> Bool {
        switch scope {
        case .all: return true
        case let .pushType(t): return t == pushType
        }
    }

    // Kept as its text in report.json and profiles: `"5:liveactivity"`.
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text: text) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}

/// A priority override's text that is not one.
public struct PriorityOverrideError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public let problem: String
    public var description: String { "'\(text)' \(problem), like 5 or 5:liveactivity" }
}
