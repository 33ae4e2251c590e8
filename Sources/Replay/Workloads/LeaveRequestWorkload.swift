import APNsCore

/// The leave-request workload (seed 000): students create leave requests, their Live Activity token may
/// arrive later (the seed's `PUT /live-activity`), and every staff status change pushes a Live Activity
/// update to the request's token — `event: end` when the request is finished.
///
/// Events: `leave.created` {request_id, student_id, student_name, request_type, reason?, activity_id?, token?},
/// `leave.token` {request_id, activity_id?, token}, `leave.status` {request_id, status, staff_id?, staff_name?}.
/// A status change for a request with no token yet is a planned push that ends as not sent (`no_token`);
/// one for a request the stream never created ends as not sent (`unknown_target`).
public final class LeaveRequestWorkload: ReplayWorkload {
    /// The slots a leave-request template may use.
    public enum Field: String, CaseIterable {
        case timestamp, event, status
        case activity_id, request_id, request_type, request_time
        case student_id, student_name, reason
        case response_time, responded_by, staff_id
    }

    /// Statuses a `leave.status` event may carry (the app's ContentState, seed 000).
    public static let statuses: Set<String> = ["sent", "pending", "approved", "rejected", "finished"]

    struct Request {
        var activityID: String?
        var token: String?
        var studentID: Int
        var studentName: String
        var requestType: String
        var reason: String?
        var requestTime: String
    }

    private let feed: EventFeed
    private var slots: TemplateSlots<Field>
    private let priority: Priority
    private let outcomes: OutcomeSink
    private let accounting: EventAccounting
    private var requests: [Int: Request] = [:]

    public var stopError: StreamLineError? { feed.stopError }
    public var readFailure: Error? { feed.readFailure }

    public init(reader: EventStreamReader, template: PayloadTemplate, templateSource: String, priority: Priority,
                badLines: RunProfile.BadLinePolicy, accounting: EventAccounting, outcomes: OutcomeSink) throws {
        slots = try TemplateSlots(template, source: templateSource, workload: "leave-requests")
        feed = EventFeed(reader: reader, policy: badLines, accounting: accounting, outcomes: outcomes, priority: priority)
        self.priority = priority
        self.accounting = accounting
        self.outcomes = outcomes
    }

    public func next(into push: inout OutgoingPush) -> Bool {
        while let record = feed.next() {
            do {
                if try apply(kind: record.kind, at: record.at, fields: record.fields, line: record.line, into: &push) { return true }
            } catch {
                if !feed.reject(error, record: record) { return false }
            }
        }
        return false
    }

    /// Applies one event; returns true when it filled `push` with a push to send.
    private func apply(kind: String, at: Int64, fields: FlatJSONObject, line: Int, into push: inout OutgoingPush) throws -> Bool {
        switch kind {
        case "leave.created":
            let id = try fields.int("request_id")
            guard requests[id] == nil else {
                throw StreamLineError(line: line, cause: .badValue(field: "request_id", why: "request \(id) was already created"))
            }
            requests[id] = Request(
                activityID: try fields.optionalString("activity_id"), token: try fields.optionalString("token"),
                studentID: try fields.int("student_id"), studentName: try fields.string("student_name"),
                requestType: try fields.string("request_type"), reason: try fields.optionalString("reason"),
                requestTime: Timestamp.iso8601(millis: at))
            accounting.eventApplied(kind: kind, pushes: 0)
            return false

        case "leave.token":
            let id = try fields.int("request_id")
            let token = try fields.string("token")
            let activityID = try fields.optionalString("activity_id")
            guard requests[id] != nil else {
                throw StreamLineError(line: line, cause: .badValue(field: "request_id", why: "token for request \(id), which the stream never created"))
            }
            requests[id]!.token = token
            if let activityID { requests[id]!.activityID = activityID }
            accounting.eventApplied(kind: kind, pushes: 0)
            return false

        case "leave.status":
            let id = try fields.int("request_id")
            let status = try fields.string("status")
            guard Self.statuses.contains(status) else {
                throw StreamLineError(line: line, cause: .badValue(field: "status", why: "'\(status)' is not one of \(Self.statuses.sorted().joined(separator: ", "))"))
            }
            let staffName = try fields.optionalString("staff_name")
            let staffID = try fields.optionalInt("staff_id")
            accounting.eventApplied(kind: kind, pushes: 1)
            guard let request = requests[id] else {
                outcomes.record(.notSent(.unknownTarget), priority: priority, intended: 0, sent: 0, completed: 0)
                return false
            }
            guard let token = request.token, !token.isEmpty else {
                outcomes.record(.notSent(.noToken), priority: priority, intended: 0, sent: 0, completed: 0)
                return false
            }
            slots.set(.timestamp, .integer(Int(at / 1000)))
            slots.set(.event, .string(status == "finished" ? "end" : "update"))
            slots.set(.status, .string(status))
            slots.set(.activity_id, request.activityID.map { .string($0) } ?? .null)
            slots.set(.request_id, .integer(id))
            slots.set(.request_type, .string(request.requestType))
            slots.set(.request_time, .string(request.requestTime))
            slots.set(.student_id, .integer(request.studentID))
            slots.set(.student_name, .string(request.studentName))
            slots.set(.reason, request.reason.map { .string($0) } ?? .null)
            slots.set(.response_time, .string(Timestamp.iso8601(millis: at)))
            slots.set(.responded_by, staffName.map { .string($0) } ?? .null)
            slots.set(.staff_id, staffID.map { .integer($0) } ?? .null)
            slots.render(into: &push.body)
            push.deviceToken = token
            push.priority = priority
            push.intendedNanos = 0
            push.recordedMillis = at
            return true

        default:
            throw StreamLineError(line: line, cause: .unknownKind(kind))
        }
    }
}
