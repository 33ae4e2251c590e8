import APNsCore

/// Checks APNs Live Activity payloads against an app's ``ActivityKitModel`` with `JSONDecoder`'s rules,
/// to count pushes that APNs accepts but the device could not decode (and so silently drops).
///
/// The payload is decoded as `JSONDecoder` would decode `{"aps": {"attributes": A, "content-state": S}}`
/// into structs with those keys: `aps` and its keys must be valid, then for ``LiveActivityEvent/update``
/// and ``LiveActivityEvent/end`` `aps.content-state` must decode as `ContentState`; for
/// ``LiveActivityEvent/start`` `aps.attributes` must decode as the attributes struct as well (checked
/// first). Unknown keys are ignored, and so is any malformed text inside values nobody decodes, as
/// `JSONDecoder` does. Where `JSONDecoder` stops at its first error, the checker reports every failure
/// it finds, in decoding order (dictionary entries in payload order).
///
/// A check scans the payload bytes once and allocates only the scan's node array (plus messages for
/// failures); it never traps, whatever the bytes.
public struct PayloadCheck: Sendable {
    public let model: ActivityKitModel
    public let dateStrategy: DateStrategy

    public init(model: ActivityKitModel, dateStrategy: DateStrategy = .deferredToDate) {
        self.model = model
        self.dateStrategy = dateStrategy
    }

    /// The reasons the payload would not decode on the device for `event`; empty when it would.
    ///
    /// - Parameter payload: the whole APNs payload as UTF-8 JSON (`[UInt8]`, `Data`, `String.UTF8View`, …).
    public func check<Bytes: Sequence>(payload: Bytes, event: LiveActivityEvent) -> [DecodeFailure] where Bytes.Element == UInt8 {
        if let failures = payload.withContiguousStorageIfAvailable({ check(buffer: $0, event: event) }) {
            return failures
        }
        return Array(payload).withUnsafeBufferPointer { check(buffer: $0, event: event) }
    }

    /// Checks the payload as the device acts on it: as the event its own `aps.event` names.
    ///
    /// - Parameter payload: the whole APNs payload as UTF-8 JSON.
    /// - Returns: ``SentPayloadVerdict/checked(_:_:)`` with the event and its failures (empty when the
    ///   device decodes it), or ``SentPayloadVerdict/checkedPartly(_:_:)`` when some of its values were left
    ///   to parts of the model that are not checked (``ActivityKitModel/unchecked``); ``SentPayloadVerdict/noEvent`` when
    ///   `aps.event` is absent or names no event;
    ///   ``SentPayloadVerdict/invalidJSON(_:)`` when `JSONDecoder` would not read the payload at all.
    public func checkAsSent<Bytes: Sequence>(payload: Bytes) -> SentPayloadVerdict where Bytes.Element == UInt8 {
        if let verdict = payload.withContiguousStorageIfAvailable({ checkAsSent(buffer: $0) }) {
            return verdict
        }
        return Array(payload).withUnsafeBufferPointer { checkAsSent(buffer: $0) }
    }

    /// ``checkAsSent(payload:)-(Bytes)`` for a byte array: the same check, without the unspecialized
    /// generic path a caller in another module would otherwise take.
    public func checkAsSent(payload: [UInt8]) -> SentPayloadVerdict {
        payload.withUnsafeBufferPointer { checkAsSent(buffer: $0) }
    }

    private func checkAsSent(buffer: UnsafeBufferPointer<UInt8>) -> SentPayloadVerdict {
        switch JSONTape.scan(buffer) {
        case .failure(let error):
            return .invalidJSON(Self.syntaxFailure(error))
        case .success(let nodes):
            var walker = PayloadWalker(bytes: buffer, nodes: nodes, model: model, dateStrategy: dateStrategy)
            guard let event = walker.event() else { return .noEvent }
            walker.checkPayload(event: event)
            return walker.uncheckedValues > 0 ? .checkedPartly(event, walker.failures) : .checked(event, walker.failures)
        }
    }

    private static func syntaxFailure(_ error: JSONSyntaxError) -> DecodeFailure {
        DecodeFailure(path: "", reason: .invalidJSON, message: "not valid JSON at byte \(error.offset): \(error.message)")
    }

    private func check(buffer: UnsafeBufferPointer<UInt8>, event: LiveActivityEvent) -> [DecodeFailure] {
        switch JSONTape.scan(buffer) {
        case .failure(let error):
            return [Self.syntaxFailure(error)]
        case .success(let nodes):
            var walker = PayloadWalker(bytes: buffer, nodes: nodes, model: model, dateStrategy: dateStrategy)
            walker.checkPayload(event: event)
            return walker.failures
        }
    }
}
