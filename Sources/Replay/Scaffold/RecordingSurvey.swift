import APNsCore
import Foundation

/// What a recording holds, as `apnsbench recipe init` needs it to write a recipe skeleton: its form (API calls
/// or events with a kind field), its time field, and its lines grouped into events, each with the fields its
/// lines carry and what their values look like.
public struct RecordingSurvey {
    public enum Form: Equatable {
        /// One line per API call: `method`, `path`, `body`, `response`.
        case api
        /// One line per event, named by the value of this top-level field.
        case kind(String)
    }

    /// One event: the lines of one method and path pattern, or of one kind value.
    public struct Event {
        /// `PUT /parcels/:parcelId/status`, or the kind's value.
        public var match: String
        public var name: String
        public var captures: [String] = []
        public var lines = 0
        public var firstLine = 0
        /// By path into the line (`body.status`, `path.parcelId`), in the order first seen.
        public var fields: [String: FieldSurvey] = [:]
        public var order: [String] = []
    }

    public var path: String
    public var form: Form
    public var timeField: String
    public var timeFormat: RecordShape.TimeFormat
    public var events: [Event]
    public var lines: Int
    /// The routes whose literal segment at `*` takes many values (``slugRoutes(_:)``): captured like ids.
    var slugs: Set<String> = []

    /// Keys of a line that are not an event's fields.
    static let apiKeys: Set = ["method", "path", "at"]
    /// An API call's bodies: an object of fields, or null (a DELETE's), which is no field.
    static let bodyKeys: Set = ["body", "response.body"]
    static let kindCandidates = ["kind", "type", "event", "event_type", "name", "action"]
    static let timeCandidates = ["at", "timestamp", "time", "ts", "created_at", "occurred_at"]
}

/// What the values of one field look like over an event's lines.
public struct FieldSurvey {
    /// Lines the key was on (null included), lines it was null on, lines of the event.
    public var present = 0
    public var nulls = 0
    public var empties = 0
    public var strings = 0
    public var integers = 0
    public var numbers = 0
    public var booleans = 0
    public var intLists = 0
    public var stringLists = 0
    public var other = 0
    /// Every non-empty string value was a device token, a time.
    public var allTokens = true
    public var allTimes = true
    /// Up to ``valueLimit`` distinct values, for a comment.
    public var values: [String] = []
    public var moreValues = false
    static let valueLimit = 6

    mutating func note(_ text: String) {
        guard !values.contains(text) else { return }
        if values.count < Self.valueLimit { values.append(text) } else { moreValues = true }
    }
}
