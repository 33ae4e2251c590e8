import APNsCore

/// The leave-request workload (a school's leave-request app): students create leave requests, their Live Activity token may
/// arrive later (the app sends it to its server with `PUT /live-activity`), and every staff status change pushes a Live Activity
/// update to the request's token — `event: end` when the request is finished.
///
/// Events: `leave.created` {request_id, student_id, student_name, request_type, reason?, activity_id?, token?},
/// `leave.token` {request_id, activity_id?, token}, `leave.status` {request_id, status, staff_id?, staff_name?}.
/// A status change for a request with no token yet is a planned push that ends as not sent (`no_token`);
/// one for a request the stream never created ends as not sent (`unknown_target`).
public final class LeaveRequestWorkload: WorkloadRules {
    /// The slots a leave-request template may use. `request_time` and `response_time` are times: ISO 8601
    /// text in a string slot, or a number in an integer slot with a time format
    /// (`"{{#response_time|reference_date}}"`, what the app's `Date` properties decode by default).
    public enum Field: String, CaseIterable {
        case timestamp, event, status
        case activity_id, request_id, request_type, request_time
        case student_id, student_name, reason
        case response_time, responded_by, staff_id
    }

    /// Statuses a `leave.status` event may carry (the app's Live Activity ContentState).
    public static let statuses: Set<String> = ["sent", "pending", "approved", "rejected", "finished"]

    struct Request {
        var activityID: String?
        var token: String?
        var studentID: Int
        var studentName: String
        var requestType: String
        var reason: String?
        /// When the request was created, epoch milliseconds.
        var requestMillis: Int64
    }

    private var slots: TemplateSlots<Field>
    private let priority: Priority
    private var requests: [Int: Request] = [:]
    private var plan = SinglePlan()

    /// - Parameter priority: `apns-priority` of every push.
    public init(template: PayloadTemplate, templateSource: String, priority: Priority) throws {
        slots = try TemplateSlots(template, source: templateSource, workload: "leave-requests", timeFields: [.request_time, .response_time])
        self.priority = priority
    }

    /// It never broadcasts.
    public var followersNotSubscribed: Int { 0 }

    public func nextPlanned(into push: inout OutgoingPush) -> PullResult? {
        plan.take(into: &push) { slots.render(into: &$0) }
    }

    /// Applies one event: a status change plans one push (sent, or not sent without a token).
    public func apply(_ record: StreamRecord) throws -> Int {
        let (kind, at, fields, line) = (record.kind, record.at, record.fields, record.line)
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
                requestMillis: at)
            return 0

        case "leave.token":
            let id = try fields.int("request_id")
            let token = try fields.string("token")
            let activityID = try fields.optionalString("activity_id")
            guard requests[id] != nil else {
                throw StreamLineError(line: line, cause: .badValue(field: "request_id", why: "token for request \(id), which the stream never created"))
            }
            requests[id]!.token = token
            if let activityID { requests[id]!.activityID = activityID }
            return 0

        case "leave.status":
            let id = try fields.int("request_id")
            let status = try fields.string("status")
            guard Self.statuses.contains(status) else {
                throw StreamLineError(line: line, cause: .badValue(field: "status", why: "'\(status)' is not one of \(Self.statuses.sorted().joined(separator: ", "))"))
            }
            let staffName = try fields.optionalString("staff_name")
            let staffID = try fields.optionalInt("staff_id")
            guard let request = requests[id] else {
                plan.state = .notSent(.unknownTarget, priority)
                return 1
            }
            guard let token = request.token, !token.isEmpty else {
                plan.state = .notSent(.noToken, priority)
                return 1
            }
            slots.set(.timestamp, .integer(Int(at / 1000)))
            slots.set(.event, .string(status == "finished" ? "end" : "update"))
            slots.set(.status, .string(status))
            slots.set(.activity_id, request.activityID.map { .string($0) } ?? .null)
            slots.set(.request_id, .integer(id))
            slots.set(.request_type, .string(request.requestType))
            slots.setTime(.request_time, millis: request.requestMillis)
            slots.set(.student_id, .integer(request.studentID))
            slots.set(.student_name, .string(request.studentName))
            slots.set(.reason, request.reason.map { .string($0) } ?? .null)
            slots.setTime(.response_time, millis: at)
            slots.set(.responded_by, staffName.map { .string($0) } ?? .null)
            slots.set(.staff_id, staffID.map { .integer($0) } ?? .null)
            plan.state = .send(token: token, priority: priority, recordedMillis: at)
            return 1

        default:
            throw StreamLineError(line: line, cause: .unknownKind(kind))
        }
    }
}
