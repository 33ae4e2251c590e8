import DeviceContract
import Foundation

/// A model known twice: as source for the parser and as real types for `JSONDecoder`.
struct OracleModel: Sendable {
    let name: String
    let source: String
    let model: ActivityKitModel
    private let decodeBody: @Sendable (Data, JSONDecoder, LiveActivityEvent) throws -> Void

    init<Attributes: ActivityAttributes>(_ name: String, source: String, type: Attributes.Type) {
        self.name = name
        self.source = source
        do {
            self.model = try ModelDeclaration.parse(source: source, file: name + ".swift")
        } catch {
            fatalError("oracle model \(name) does not parse: \(error)")
        }
        decodeBody = { data, decoder, event in
            if event == .start {
                _ = try decoder.decode(StartEnvelope<Attributes, Attributes.ContentState>.self, from: data)
            } else {
                _ = try decoder.decode(UpdateEnvelope<Attributes.ContentState>.self, from: data)
            }
        }
    }

    /// What `JSONDecoder` (with `strategy`) says about `payload`.
    func decoderVerdict(_ payload: [UInt8], event: LiveActivityEvent, strategy: DateStrategy) -> DecoderVerdict {
        let decoder = JSONDecoder()
        switch strategy {
        case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
        case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
        case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
        case .iso8601: decoder.dateDecodingStrategy = .iso8601
        }
        do {
            try decodeBody(Data(payload), decoder, event)
            return .ok
        } catch let error as DecodingError {
            return DecoderVerdict(error)
        } catch {
            return DecoderVerdict(kind: "other", location: .unlocated, detail: "\(error)")
        }
    }

    func checker(_ strategy: DateStrategy) -> PayloadCheck { PayloadCheck(model: model, dateStrategy: strategy) }

    static let all: [OracleModel] = [
        OracleModel("LeaveRequestAttributes", source: leaveRequestDeclaration, type: LeaveRequestAttributes.self),
        OracleModel("OrderChangesAttributes", source: orderChangesDeclaration, type: OrderChangesAttributes.self),
        OracleModel("DeliveryAttributes", source: deliveryDeclaration, type: DeliveryAttributes.self),
        OracleModel("TelemetryAttributes", source: telemetryDeclaration, type: TelemetryAttributes.self),
        OracleModel("PizzaDeliveryAttributes", source: pizzaDeliveryDeclaration, type: PizzaDeliveryAttributes.self),
        OracleModel("OrderTrackerAttributes", source: orderTrackerDeclaration, type: OrderTrackerAttributes.self),
        OracleModel("ScoreboardAttributes", source: scoreboardDeclaration, type: ScoreboardAttributes.self),
        OracleModel("ChargingAttributes", source: chargingDeclaration, type: ChargingAttributes.self),
        OracleModel("MediaUploadAttributes", source: mediaDeclaration, type: MediaUploadAttributes.self),
        OracleModel("RouteAttributes", source: routeDeclaration, type: RouteAttributes.self),
    ]

    static func named(_ name: String) -> OracleModel {
        guard let model = all.first(where: { $0.name.hasPrefix(name) }) else { fatalError("no oracle model \(name)") }
        return model
    }
}

/// The payload shape the device decodes for update/end.
struct UpdateEnvelope<State: Decodable>: Decodable {
    struct APS: Decodable {
        let contentState: State
        enum CodingKeys: String, CodingKey { case contentState = "content-state" }
    }

    let aps: APS
}

/// The payload shape the device decodes for a push-to-start.
struct StartEnvelope<Attributes: Decodable, State: Decodable>: Decodable {
    struct APS: Decodable {
        let attributes: Attributes
        let contentState: State
        enum CodingKeys: String, CodingKey {
            case attributes
            case contentState = "content-state"
        }
    }

    let aps: APS
}

/// `JSONDecoder`'s answer, with its error's location in the checker's path notation.
struct DecoderVerdict: CustomStringConvertible {
    enum Location: Equatable {
        /// The failing value's path.
        case exact(String)
        /// Foundation reports an ISO 8601 failure at the enclosing container, not the value.
        case container(String)
        /// Foundation reports a malformed or unfitting number, a bad escape or invalid UTF-8 as "not
        /// valid JSON" with an empty coding path.
        case unlocated
    }

    let kind: String
    let location: Location
    let detail: String

    static let ok = DecoderVerdict(kind: "ok", location: .unlocated, detail: "")

    var isOK: Bool { kind == "ok" }

    init(kind: String, location: Location, detail: String) {
        self.kind = kind
        self.location = location
        self.detail = detail
    }

    init(_ error: DecodingError) {
        switch error {
        case .keyNotFound(let key, let context):
            self.init(kind: "keyNotFound", location: .exact(Self.path(context.codingPath + [key])), detail: context.debugDescription)
        case .valueNotFound(_, let context):
            self.init(kind: "valueNotFound", location: .exact(Self.path(context.codingPath)), detail: context.debugDescription)
        case .typeMismatch(_, let context):
            self.init(kind: "typeMismatch", location: .exact(Self.path(context.codingPath)), detail: context.debugDescription)
        case .dataCorrupted(let context):
            let location: Location
            if context.debugDescription.hasPrefix("Expected date string to be ISO8601") {
                location = .container(Self.path(context.codingPath))
            } else if context.codingPath.isEmpty {
                location = .unlocated
            } else {
                location = .exact(Self.path(context.codingPath))
            }
            self.init(kind: "dataCorrupted", location: location, detail: context.debugDescription)
        @unknown default:
            self.init(kind: "unknown", location: .unlocated, detail: "\(error)")
        }
    }

    /// `[aps, content-state, items, Index 2, name]` → `content-state.items[2].name`.
    static func path(_ keys: [any CodingKey]) -> String {
        var text = ""
        for (position, key) in keys.enumerated() {
            if position == 0 && key.stringValue == "aps" && keys.count > 1 { continue }
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return text
    }

    var description: String {
        switch location {
        case _ where isOK: return "ok"
        case .exact(let path): return "FAIL \(path.isEmpty ? "(root)" : path) \(kind)"
        case .container(let path): return "FAIL in \(path) \(kind)"
        case .unlocated: return "FAIL (no path) \(kind)"
        }
    }

    /// Whether the checker's failures say the same: both OK, or both failing at the same place
    /// (`requireFirst`: the checker's first failure, as JSONDecoder stops at its first error) for a
    /// compatible reason.
    func agrees(with failures: [DecodeFailure], expectedPath: String?, requireFirst: Bool = true) -> Bool {
        if isOK || failures.isEmpty { return isOK && failures.isEmpty }
        let candidates = requireFirst ? [failures[0]] : failures
        return candidates.contains { failure in
            guard reasonIsCompatible(failure.reason) else { return false }
            switch location {
            case .exact(let path): return failure.path == path
            case .container(let path): return Self.parent(of: failure.path) == path
            case .unlocated: return expectedPath.map { $0 == failure.path } ?? true
            }
        }
    }

    private func reasonIsCompatible(_ reason: DecodeFailure.Reason) -> Bool {
        switch kind {
        case "keyNotFound": return reason == .missingKey || reason == .missingContainer
        // An unkeyed container at its end (a range with one bound) is a missing element.
        case "valueNotFound": return reason == .nullForNonOptional || reason == .missingContainer || reason == .missingKey
        case "typeMismatch": return [.typeMismatch, .badDate, .missingContainer, .nullForNonOptional].contains(reason)
        case "dataCorrupted":
            if detail.hasPrefix("Expected date string") { return reason == .badDate }
            if detail.contains("lowerBound") { return reason == .invalidValue }
            if detail.hasPrefix("Cannot initialize") { return reason == .badEnumValue }
            if detail.contains("UUID") || detail.contains("URL") || detail.contains("Base64") { return reason == .invalidValue }
            return [.invalidJSON, .typeMismatch, .badDate].contains(reason)
        default: return false
        }
    }

    /// `a.b[2]` → `a.b`; `a.b` → `a`.
    static func parent(of path: String) -> String {
        if path.hasSuffix("]"), let open = path.lastIndex(of: "[") { return String(path[..<open]) }
        if let dot = path.lastIndex(of: ".") { return String(path[..<dot]) }
        return ""
    }
}
