import APNsCore

/// A value read from a request, or the reason APNs refuses the request for it. (`Result` would need
/// `Reason` to be an `Error`, which it is not: a rejection is an answer, not a failure.)
enum Checked<Value: Equatable>: Equatable {
    case valid(Value)
    case refused(Reason)
}
