/// Checks APNs Live Activity payloads against an app's ``ActivityModel`` with `JSONDecoder`'s rules,
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
    public let model: ActivityModel
    public let dateStrategy: DateStrategy

    public init(model: ActivityModel, dateStrategy: DateStrategy = .deferredToDate) {
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

    private func check(buffer: UnsafeBufferPointer<UInt8>, event: LiveActivityEvent) -> [DecodeFailure] {
        switch JSONTape.scan(buffer) {
        case .failure(let error):
            return [DecodeFailure(path: "", reason: .invalidJSON, message: "not valid JSON at byte \(error.offset): \(error.message)")]
        case .success(let nodes):
            var walker = PayloadWalker(bytes: buffer, nodes: nodes, model: model, dateStrategy: dateStrategy)
            walker.checkPayload(event: event)
            return walker.failures
        }
    }
}
