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

    private let reader: EventStreamReader
    private let template: PayloadTemplate
    private let priority: Priority
    private let badLines: RunProfile.BadLinePolicy
    private let accounting: EventAccounting
    private let outcomes: OutcomeSink
    private var requests: [Int: Request] = [:]
    /// The template's slot index for each field (nil: the template does not use it).
    private let slotOf: [Field: Int]
    /// Reused per push.
    private var values: [PayloadTemplate.Value]
    public private(set) var stopError: StreamLineError?
    public private(set) var readFailure: Error?

    public init(reader: EventStreamReader, template: PayloadTemplate, templateSource: String, priority: Priority,
                badLines: RunProfile.BadLinePolicy, accounting: EventAccounting, outcomes: OutcomeSink) throws {
        var slotOf: [Field: Int] = [:]
        for (i, name) in template.slotNames.enumerated() {
            guard let field = Field(rawValue: name) else {
                throw WorkloadError.unknownSlot(template: templateSource, slot: name, workload: "leave-requests",
                                                fields: Field.allCases.map(\.rawValue))
            }
            slotOf[field] = i
        }
        self.reader = reader
        self.template = template
        self.priority = priority
        self.badLines = badLines
        self.accounting = accounting
        self.outcomes = outcomes
        self.slotOf = slotOf
        self.values = Array(repeating: .null, count: template.slotNames.count)
        // Check at start that a filled template is JSON.
        try template.validate(sample: template.slotKinds.map { $0 == .integer ? .integer(1) : .string("x") }, source: templateSource)
    }

    public func next(into push: inout OutgoingPush) -> Bool {
        while stopError == nil, readFailure == nil {
            let event: EventStreamReader.Event?
            do { event = try reader.next() } catch {
                // The file itself failed (I/O), not a line: the run cannot go on.
                readFailure = error
                return false
            }
            guard let event else { return false }
            switch event {
            case let .bad(error):
                if handleBad(error, kind: nil) { continue } else { return false }
            case let .record(line, at, kind, fields):
                do {
                    if try apply(kind: kind, at: at, fields: fields, line: line, into: &push) { return true }
                } catch let error as StreamLineError {
                    if handleBad(error, kind: kind) { continue } else { return false }
                } catch {
                    if handleBad(StreamLineError(line: line, cause: .badValue(field: "?", why: "\(error)")), kind: kind) { continue } else { return false }
                }
            }
        }
        return false
    }

    /// Counts a bad line; returns true to go on (policy skip), false to stop.
    private func handleBad(_ error: StreamLineError, kind: String?) -> Bool {
        accounting.badLine(error, kind: kind)
        outcomes.record(.notSent(.badLine), priority: priority, intended: 0, sent: 0, completed: 0)
        if badLines == .stop { stopError = error; return false }
        return true
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
            set(.timestamp, .integer(Int(at / 1000)))
            set(.event, .string(status == "finished" ? "end" : "update"))
            set(.status, .string(status))
            set(.activity_id, request.activityID.map { .string($0) } ?? .null)
            set(.request_id, .integer(id))
            set(.request_type, .string(request.requestType))
            set(.request_time, .string(request.requestTime))
            set(.student_id, .integer(request.studentID))
            set(.student_name, .string(request.studentName))
            set(.reason, request.reason.map { .string($0) } ?? .null)
            set(.response_time, .string(Timestamp.iso8601(millis: at)))
            set(.responded_by, staffName.map { .string($0) } ?? .null)
            set(.staff_id, staffID.map { .integer($0) } ?? .null)
            template.render(into: &push.body, values: values)
            push.deviceToken = token
            push.priority = priority
            push.intendedNanos = 0
            push.recordedMillis = at
            return true

        default:
            throw StreamLineError(line: line, cause: .unknownKind(kind))
        }
    }

    @inline(__always)
    private func set(_ field: Field, _ value: PayloadTemplate.Value) {
        if let i = slotOf[field] { values[i] = value }
    }
}
