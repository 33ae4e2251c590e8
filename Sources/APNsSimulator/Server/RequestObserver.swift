import NIOCore

/// One `/3/device` request as the simulator answered it: what a report of a sender's traffic counts
/// (`apnsbench simulate --report`). Header values are as sent (nil when absent).
public struct AnsweredRequest {
    public var pushType: String?
    public var topic: String?
    public var priority: String?
    /// `apns-collapse-id` and `apns-expiration` as sent (for the device model).
    public var collapseID: String?
    public var expiration: String?
    /// The path's device token (nil when the path is not `/3/device/<token>`).
    public var deviceToken: Substring?
    /// The HTTP status answered; 0 when the connection was reset or stalled instead (no answer).
    public var status: Int
    /// The reason answered with a non-200 status (`BadDeviceToken`), `no_answer` for status 0; nil for 200.
    public var reason: String?
    /// Monotonic nanoseconds: when the request's last frame was read, and when its answer was due to leave
    /// (the validation's end plus the model's delay).
    public var arrivalNanos: UInt64
    public var answerNanos: UInt64
    /// The body, for Live Activity pushes only (the device contract's check reads it); nil otherwise.
    public var payload: ByteBuffer?
    /// A liveactivity priority-10 push past its token's hourly budget.
    public var budgetOverrun: Bool

    public init(pushType: String?, topic: String?, priority: String?, deviceToken: Substring?, status: Int, reason: String?,
                arrivalNanos: UInt64, answerNanos: UInt64, payload: ByteBuffer? = nil, budgetOverrun: Bool = false,
                collapseID: String? = nil, expiration: String? = nil) {
        self.pushType = pushType
        self.topic = topic
        self.priority = priority
        self.deviceToken = deviceToken
        self.status = status
        self.reason = reason
        self.arrivalNanos = arrivalNanos
        self.answerNanos = answerNanos
        self.payload = payload
        self.budgetOverrun = budgetOverrun
        self.collapseID = collapseID
        self.expiration = expiration
    }
}

/// What one connection hands each answered request to. Called on the connection's event loop only, so an
/// implementation keeps plain counts without a lock and merges them once the simulator has stopped.
public protocol ConnectionRequestLog: AnyObject {
    func answered(_ request: AnsweredRequest)
}

/// Watches every request of a validating simulator (`APNsSimulator.requestObserver`): one log per
/// connection, made when the connection is accepted. Without an observer the handler does nothing more
/// per request than a nil check.
public protocol RequestObserver: AnyObject, Sendable {
    func connectionOpened(id: Int) -> ConnectionRequestLog
}
