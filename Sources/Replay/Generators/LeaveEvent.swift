import APNsCore

/// One event of a leave-request recording, and its two written forms.
///
/// The event form (`eventLine`) has invented kinds:
/// - `leave.created` {request_id, student_id, student_name, request_type, reason?, activity_id?, token?}
/// - `leave.token` {request_id, activity_id?, token}
/// - `leave.status` {request_id, status, staff_id?, staff_name?}
///
/// The API form (`apiLine`) is the app's HTTP call that caused the event, as a server middleware
/// logs it: `{"at", "method", "path", "body", "response"?}`. Paths and body fields are the app's
/// own (snake_case):
/// - created: `POST /api/leave-requests`, body {student_id, student_name, request_type, reason?,
///   live_activity_id?, live_activity_token?}; the server assigns the id, so the line carries the
///   answer: `"response": {"status": 201, "body": {"success": true, "request": {"id", ...}}}`, the
///   request echoed with `status` "pending", `created_at`, `updated_at`, `responded_by` null,
///   `response_time` null. The request id is `response.body.request.id`.
/// - token: `PUT /api/leave-requests/{id}/live-activity`, body {live_activity_id, live_activity_token}.
/// - status: `PUT /api/leave-requests/{id}/status`, body {status, staff_id, staff_name}.
/// Absent optional values are left out of a request body (a client's encoder omits nil) and are
/// null in the echoed response. The app's API does not give the creation's HTTP status; 201
/// Created is the usual REST answer. Only the creation line has a `response`: it is the only call
/// whose answer carries a value the other lines need.
public enum LeaveEvent: Sendable, Equatable {
    case created(Created)
    case token(Token)
    case status(Status)

    public struct Created: Sendable, Equatable {
        public var at: Int64
        public var requestID: Int
        public var studentID: Int
        public var studentName: String
        public var requestType: String
        public var reason: String?
        public var activityID: String?
        public var token: String?
    }

    public struct Token: Sendable, Equatable {
        public var at: Int64
        public var requestID: Int
        public var activityID: String?
        public var token: String
    }

    public struct Status: Sendable, Equatable {
        public var at: Int64
        public var requestID: Int
        public var status: String
        public var staffID: Int?
        public var staffName: String?
    }

    /// When the event happened, epoch milliseconds.
    public var at: Int64 {
        switch self {
        case let .created(e): return e.at
        case let .token(e): return e.at
        case let .status(e): return e.at
        }
    }

    /// The event form's line, with its newline.
    public func eventLine() -> [UInt8] {
        var l = NDJSONLine()
        l.string("at", Timestamp.iso8601(millis: at))
        switch self {
        case let .created(e):
            l.string("kind", "leave.created"); l.int("request_id", e.requestID); l.int("student_id", e.studentID)
            l.string("student_name", e.studentName); l.string("request_type", e.requestType); l.string("reason", e.reason)
            l.string("activity_id", e.activityID); l.string("token", e.token)
        case let .token(e):
            l.string("kind", "leave.token"); l.int("request_id", e.requestID); l.string("activity_id", e.activityID)
            l.string("token", e.token)
        case let .status(e):
            l.string("kind", "leave.status"); l.int("request_id", e.requestID); l.string("status", e.status)
            l.int("staff_id", e.staffID); l.string("staff_name", e.staffName)
        }
        return l.line
    }

    /// The API form's line, with its newline.
    public func apiLine() -> [UInt8] {
        var l = NDJSONLine()
        let time = Timestamp.iso8601(millis: at)
        l.string("at", time)
        switch self {
        case let .created(e):
            l.string("method", "POST")
            l.string("path", "/api/leave-requests")
            l.object("body") { b in
                b.int("student_id", e.studentID)
                b.string("student_name", e.studentName)
                b.string("request_type", e.requestType)
                if let reason = e.reason { b.string("reason", reason) }
                if let activityID = e.activityID { b.string("live_activity_id", activityID) }
                if let token = e.token { b.string("live_activity_token", token) }
            }
            l.object("response") { r in
                r.int("status", 201)
                r.object("body") { b in
                    b.bool("success", true)
                    b.object("request") { q in
                        q.int("id", e.requestID); q.int("student_id", e.studentID)
                        q.string("student_name", e.studentName); q.string("request_type", e.requestType)
                        q.string("reason", e.reason); q.string("status", "pending")
                        q.string("created_at", time); q.string("updated_at", time)
                        q.string("responded_by", nil); q.string("response_time", nil)
                        q.string("live_activity_id", e.activityID); q.string("live_activity_token", e.token)
                    }
                }
            }
        case let .token(e):
            l.string("method", "PUT")
            l.string("path", "/api/leave-requests/\(e.requestID)/live-activity")
            l.object("body") { b in
                if let activityID = e.activityID { b.string("live_activity_id", activityID) }
                b.string("live_activity_token", e.token)
            }
        case let .status(e):
            l.string("method", "PUT")
            l.string("path", "/api/leave-requests/\(e.requestID)/status")
            l.object("body") { b in
                b.string("status", e.status)
                if let staffID = e.staffID { b.int("staff_id", staffID) }
                if let staffName = e.staffName { b.string("staff_name", staffName) }
            }
        }
        return l.line
    }
}
