import DeviceContract
import Foundation
import XCTest

/// The checker against JSONDecoder itself, row by row: the same declarations (as source and as real
/// types), the same payload bytes, the same date strategy.
final class OracleTableTests: XCTestCase {
    struct Row {
        let model: String
        let event: LiveActivityEvent
        let strategy: DateStrategy
        let summary: String
        let payload: String
        /// nil: decodes. Otherwise the path of the (first) failing value.
        let failsAt: String?
    }

    // MARK: Payload builders

    static func update(_ contentState: String, event: String = "update") -> String {
        #"{"aps":{"timestamp":1714042800,"event":"\#(event)","content-state":\#(contentState),"alert":{"title":"Update","body":"Something changed."}}}"#
    }

    static func start(attributes: String, contentState: String, type: String) -> String {
        #"{"aps":{"timestamp":1714042800,"event":"start","attributes-type":"\#(type)","attributes":\#(attributes),"content-state":\#(contentState)}}"#
    }

    static let leaveAttributes = #"{"id":"E0D62919-9EF2-49C6-A108-85A227AF3904","studentName":"John Doe","studentId":1427,"requestTime":735040800,"#
        + #""reason":"Doctor's appointment"}"#
    static let leaveState = #"{"status":"pending"}"#
    static let documentedLeavePayload = #"{"aps":{"timestamp":1714042800,"attributes-type":"LeaveRequestAttributes","#
        + #""attributes":{"id":"E0D62919-9EF2-49C6-A108-85A227AF3904","studentName":"John Doe","studentId":1427,"requestTime":"2025-04-16T12:00:00Z","#
        + #""reason":"Doctor's appointment"},"content-state":{"status":"approved","responseTime":"2025-04-16T10:04:52Z","respondedBy":"Jane Smith"},"#
        + #""event":"update","alert":{"title":"Leave Request Update","body":"Your leave request status has been updated."}},"#
        + #""activity-id":"E0D62919-9EF2-49C6-A108-85A227AF3904"}"#

    static func order(_ fields: String) -> String { update("{\(fields)}") }

    static let courier = #"{"name":"Ana","phone":null,"photo":"https://cdn.example.com/ana.png"}"#
    static func delivery(_ overrides: [String: String] = [:], drop: Set<String> = []) -> String {
        var fields: [(String, String)] = [
            ("stage", #""in_transit""#), ("priority", "2"), ("eta_s", "540"), ("courier", courier),
            ("backup_courier", "null"), ("stops", "[]"), ("updated_at", "766000000"),
        ]
        for (key, value) in overrides {
            if let slot = fields.firstIndex(where: { $0.0 == key }) { fields[slot].1 = value } else { fields.append((key, value)) }
        }
        return "{" + fields.filter { !drop.contains($0.0) }.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }
    static func deliveryAttributes(orderID: String = "\"9F1C2B4E-5D6A-4B7C-8E9F-0A1B2C3D4E5F\"", url: String = "\"https://track.example.com/9F1C\"") -> String {
        #"{"orderID":\#(orderID),"merchant":"Pho 24","trackingURL":\#(url),"placedAt":765999000}"#
    }

    static func telemetry(_ overrides: [String: String] = [:], drop: Set<String> = []) -> String {
        var fields: [(String, String)] = [
            ("level", "-3"), ("port", "8443"), ("counter", "42"), ("ratio", "0.25"), ("temperature", "21.5"),
            ("charging", "false"), ("samples", "[1,2,3]"), ("gaps", "[1,2]"), ("totals", #"{"a":1}"#),
            ("labels", #"{"1":"one"}"#), ("checkpoints", "[0,1.5]"), ("deviceID", #""E0D62919-9EF2-49C6-A108-85A227AF3904""#),
            ("lastSeen", "null"), ("retries", "0"),
        ]
        for (key, value) in overrides {
            if let slot = fields.firstIndex(where: { $0.0 == key }) { fields[slot].1 = value } else { fields.append((key, value)) }
        }
        return update("{" + fields.filter { !drop.contains($0.0) }.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}")
    }

    // MARK: The table

    static let rows: [Row] = {
        let iso = #""2025-04-16T10:04:52Z""#
        var rows: [Row] = []
        func add(_ model: String, _ event: LiveActivityEvent, _ strategy: DateStrategy,
                 _ summary: String, _ payload: String, failsAt: String? = nil) {
            rows.append(Row(model: model, event: event, strategy: strategy, summary: summary, payload: payload, failsAt: failsAt))
        }
        func add(_ model: String, _ summary: String, _ payload: String, failsAt: String? = nil) {
            add(model, .update, .deferredToDate, summary, payload, failsAt: failsAt)
        }
        let cs = "content-state"

        // Leave requests
        add("Leave", "status only", update(leaveState))
        add("Leave", "all fields, responseTime a number", update(#"{"status":"approved","responseTime":734522692,"respondedBy":"Jane Smith"}"#))
        add("Leave", "documented payload: ISO responseTime", documentedLeavePayload, failsAt: "\(cs).responseTime")
        add("Leave", .update, .secondsSince1970, "ISO responseTime", update(#"{"status":"approved","responseTime":\#(iso)}"#), failsAt: "\(cs).responseTime")
        add("Leave", .update, .millisecondsSince1970, "ISO responseTime", update(#"{"status":"approved","responseTime":\#(iso)}"#),
            failsAt: "\(cs).responseTime")
        add("Leave", .update, .iso8601, "ISO responseTime", update(#"{"status":"approved","responseTime":\#(iso)}"#))
        add("Leave", .update, .iso8601, "ISO with .123 fraction", update(#"{"status":"approved","responseTime":"2025-04-16T10:04:52.123Z"}"#))
        add("Leave", .update, .iso8601, "ISO with +07:00 offset", update(#"{"status":"approved","responseTime":"2025-04-16T17:04:52+07:00"}"#))
        add("Leave", .update, .iso8601, "date and time joined by space", update(#"{"status":"approved","responseTime":"2025-04-16 10:04:52Z"}"#),
            failsAt: "\(cs).responseTime")
        add("Leave", .update, .iso8601, "ISO without time zone", update(#"{"status":"approved","responseTime":"2025-04-16T10:04:52"}"#),
            failsAt: "\(cs).responseTime")
        add("Leave", .update, .iso8601, "responseTime a number", update(#"{"status":"approved","responseTime":734522692}"#), failsAt: "\(cs).responseTime")
        add("Leave", "responseTime null (optional)", update(#"{"status":"approved","responseTime":null}"#))
        add("Leave", "responseTime 1e3", update(#"{"status":"approved","responseTime":1e3}"#))
        add("Leave", "responseTime 1e400", update(#"{"status":"approved","responseTime":1e400}"#), failsAt: "\(cs).responseTime")
        add("Leave", "status missing", update(#"{"respondedBy":"Jane"}"#), failsAt: "\(cs).status")
        add("Leave", "status null", update(#"{"status":null}"#), failsAt: "\(cs).status")
        add("Leave", "status a number", update(#"{"status":1}"#), failsAt: "\(cs).status")
        add("Leave", "respondedBy a number (optional)", update(#"{"status":"approved","respondedBy":42}"#), failsAt: "\(cs).respondedBy")
        add("Leave", "unknown keys", update(#"{"status":"approved","extra":{"deep":[1,2,"x"]},"STATUS":5}"#))
        add("Leave", "duplicate key, first wins", update(#"{"status":"approved","status":7}"#))
        add("Leave", "duplicate key, bad first", update(#"{"status":7,"status":"approved"}"#), failsAt: "\(cs).status")
        add("Leave", "escaped key \\u0073tatus", update(#"{"\u0073tatus":"approved"}"#))
        add("Leave", "trailing commas", update(#"{"status":"approved",}"#))
        add("Leave", .end, .deferredToDate, "end event", update(#"{"status":"finished","responseTime":734522692}"#, event: "end"))
        add("Leave", "content-state missing", #"{"aps":{"event":"update","timestamp":1}}"#, failsAt: cs)
        add("Leave", "content-state a string", #"{"aps":{"event":"update","content-state":"pending"}}"#, failsAt: cs)
        add("Leave", "aps missing", #"{"content-state":{"status":"x"}}"#, failsAt: "aps")
        add("Leave", "syntax error at the end", update(leaveState) + "}", failsAt: "")
        add("Leave", .start, .deferredToDate, "documented attributes (ISO dates)",
            start(attributes: #"{"id":"E0D62919-9EF2-49C6-A108-85A227AF3904","studentName":"John Doe","studentId":1427,"requestTime":\#(iso),"#
                + #""reason":"Doctor's appointment"}"#, contentState: leaveState, type: "LeaveRequestAttributes"), failsAt: "attributes.requestTime")
        add("Leave", .start, .deferredToDate, "attributes valid", start(attributes: leaveAttributes, contentState: leaveState, type: "LeaveRequestAttributes"))
        add("Leave", .start, .deferredToDate, "reason null", start(attributes: leaveAttributes.replacingOccurrences(of: #""Doctor's appointment""#,
            with: "null"), contentState: leaveState, type: "LeaveRequestAttributes"), failsAt: "attributes.reason")
        add("Leave", .start, .deferredToDate, "studentId \"1427\"", start(attributes: leaveAttributes.replacingOccurrences(of: "1427", with: "\"1427\""),
            contentState: leaveState, type: "LeaveRequestAttributes"), failsAt: "attributes.studentId")
        add("Leave", .start, .deferredToDate, "studentId 1427.0", start(attributes: leaveAttributes.replacingOccurrences(of: "1427", with: "1427.0"),
            contentState: leaveState, type: "LeaveRequestAttributes"))
        add("Leave", .start, .deferredToDate, "studentId 1427.5", start(attributes: leaveAttributes.replacingOccurrences(of: "1427", with: "1427.5"),
            contentState: leaveState, type: "LeaveRequestAttributes"), failsAt: "attributes.studentId")
        add("Leave", .start, .deferredToDate, "attributes missing", update(leaveState, event: "start"), failsAt: "attributes")
        add("Leave", .start, .deferredToDate, "valid attributes, state missing status", start(attributes: leaveAttributes, contentState: "{}",
            type: "LeaveRequestAttributes"), failsAt: "\(cs).status")

        // Order changes
        add("Order", "documented payload", order(#""totalOrders":15,"lateOrders":3,"totalItems":42,"lastUpdated":1740500000"#))
        add("Order", "lastUpdated 1.7405e9", order(#""totalOrders":15,"lateOrders":3,"totalItems":42,"lastUpdated":1.7405e9"#))
        add("Order", "lastUpdated a string", order(#""totalOrders":15,"lateOrders":3,"totalItems":42,"lastUpdated":"1740500000""#),
            failsAt: "\(cs).lastUpdated")
        add("Order", "totalOrders 15.0", order(#""totalOrders":15.0,"lateOrders":3,"totalItems":42,"lastUpdated":1"#))
        add("Order", "totalOrders 1e3", order(#""totalOrders":1e3,"lateOrders":3,"totalItems":42,"lastUpdated":1"#))
        add("Order", "totalOrders 1.5", order(#""totalOrders":1.5,"lateOrders":3,"totalItems":42,"lastUpdated":1"#), failsAt: "\(cs).totalOrders")
        add("Order", "totalOrders 1e-400 (reads as 0)", order(#""totalOrders":1e-400,"lateOrders":3,"totalItems":42,"lastUpdated":1"#))
        add("Order", "totalOrders 9223372036854775808", order(#""totalOrders":9223372036854775808,"lateOrders":3,"totalItems":42,"lastUpdated":1"#),
            failsAt: "\(cs).totalOrders")
        add("Order", "lateOrders \"3\"", order(#""totalOrders":15,"lateOrders":"3","totalItems":42,"lastUpdated":1"#), failsAt: "\(cs).lateOrders")
        add("Order", "lateOrders true", order(#""totalOrders":15,"lateOrders":true,"totalItems":42,"lastUpdated":1"#), failsAt: "\(cs).lateOrders")
        add("Order", "lateOrders 03 (leading zero)", order(#""totalOrders":15,"lateOrders":03,"totalItems":42,"lastUpdated":1"#), failsAt: "\(cs).lateOrders")
        add("Order", "totalItems missing", order(#""totalOrders":15,"lateOrders":3,"lastUpdated":1"#), failsAt: "\(cs).totalItems")
        add("Order", "lastUpdated 0e5", order(#""totalOrders":15,"lateOrders":3,"totalItems":42,"lastUpdated":0e5"#), failsAt: "\(cs).lastUpdated")

        // Deliveries
        add("Delivery", "all keys, renamed by CodingKeys", update(delivery()))
        add("Delivery", "property name etaSeconds instead of eta_s", update(delivery(["etaSeconds": "540"], drop: ["eta_s"])), failsAt: "\(cs).eta_s")
        add("Delivery", "stage raw value \"delivered\"", update(delivery(["stage": #""delivered""#])))
        add("Delivery", "stage case name \"inTransit\"", update(delivery(["stage": #""inTransit""#])), failsAt: "\(cs).stage")
        add("Delivery", "priority 4 (no such case)", update(delivery(["priority": "4"])), failsAt: "\(cs).priority")
        add("Delivery", "priority 2.0", update(delivery(["priority": "2.0"])))
        add("Delivery", "priority \"2\"", update(delivery(["priority": #""2""#])), failsAt: "\(cs).priority")
        add("Delivery", "courier without name", update(delivery(["courier": #"{"phone":"1"}"#])), failsAt: "\(cs).courier.name")
        add("Delivery", "courier null", update(delivery(["courier": "null"])), failsAt: "\(cs).courier")
        add("Delivery", "courier an array", update(delivery(["courier": "[]"])), failsAt: "\(cs).courier")
        add("Delivery", "courier photo \"\" (not a URL)", update(delivery(["courier": #"{"name":"Ana","photo":""}"#])), failsAt: "\(cs).courier.photo")
        add("Delivery", "backup_courier an object", update(delivery(["backup_courier": courier])))
        add("Delivery", "stops[1].name a number", update(delivery(["stops": "[\(courier),{\"name\":5}]"])), failsAt: "\(cs).stops[1].name")
        add("Delivery", "stops missing (var with default)", update(delivery(drop: ["stops"])), failsAt: "\(cs).stops")
        add("Delivery", "schemaVersion present (let with value)", update(delivery(["schemaVersion": #""x""#])))
        add("Delivery", "note a number", update(delivery(["note": "5"])), failsAt: "\(cs).note")
        add("Delivery", .start, .deferredToDate, "attributes valid", start(attributes: deliveryAttributes(), contentState: delivery(),
            type: "DeliveryAttributes"))
        add("Delivery", .start, .deferredToDate, "orderID lower-case UUID",
            start(attributes: deliveryAttributes(orderID: "\"9f1c2b4e-5d6a-4b7c-8e9f-0a1b2c3d4e5f\""), contentState: delivery(), type: "DeliveryAttributes"))
        add("Delivery", .start, .deferredToDate, "orderID without hyphens",
            start(attributes: deliveryAttributes(orderID: "\"9F1C2B4E5D6A4B7C8E9F0A1B2C3D4E5F\""), contentState: delivery(), type: "DeliveryAttributes"),
            failsAt: "attributes.orderID")
        add("Delivery", .start, .deferredToDate, "orderID a number", start(attributes: deliveryAttributes(orderID: "42"), contentState: delivery(),
            type: "DeliveryAttributes"), failsAt: "attributes.orderID")
        add("Delivery", .start, .deferredToDate, "trackingURL \"not a url\"", start(attributes: deliveryAttributes(url: "\"not a url\""),
            contentState: delivery(), type: "DeliveryAttributes"))
        add("Delivery", .start, .deferredToDate, "trackingURL \"http://a b\"", start(attributes: deliveryAttributes(url: "\"http://a b\""),
            contentState: delivery(), type: "DeliveryAttributes"), failsAt: "attributes.trackingURL")

        // Telemetry
        add("Telemetry", "all keys", telemetry())
        add("Telemetry", "level 300 (Int8)", telemetry(["level": "300"]), failsAt: "\(cs).level")
        add("Telemetry", "port -1 (UInt16)", telemetry(["port": "-1"]), failsAt: "\(cs).port")
        add("Telemetry", "counter UInt64.max", telemetry(["counter": "18446744073709551615"]))
        add("Telemetry", "ratio 1e39 (Float)", telemetry(["ratio": "1e39"]), failsAt: "\(cs).ratio")
        add("Telemetry", "charging 1", telemetry(["charging": "1"]), failsAt: "\(cs).charging")
        add("Telemetry", "charging null", telemetry(["charging": "null"]), failsAt: "\(cs).charging")
        add("Telemetry", "samples [1,\"2\",3]", telemetry(["samples": #"[1,"2",3]"#]), failsAt: "\(cs).samples[1]")
        add("Telemetry", "samples [1,null]", telemetry(["samples": "[1,null]"]), failsAt: "\(cs).samples[1]")
        add("Telemetry", "gaps [1,null,3] ([Int?])", telemetry(["gaps": "[1,null,3]"]))
        add("Telemetry", "totals {\"a\":1,\"b\":\"x\"}", telemetry(["totals": #"{"a":1,"b":"x"}"#]), failsAt: "\(cs).totals.b")
        add("Telemetry", "labels key \"x\" ([Int: String])", telemetry(["labels": #"{"1":"a","x":"b"}"#]), failsAt: "\(cs).labels.x")
        add("Telemetry", "labels key \"01\"", telemetry(["labels": #"{"01":"a","+2":"b"}"#]))
        add("Telemetry", "checkpoints [0, ISO string]", telemetry(["checkpoints": #"[0,"2025-04-16T10:04:52Z"]"#]), failsAt: "\(cs).checkpoints[1]")
        add("Telemetry", .update, .iso8601, "checkpoints ISO strings", telemetry(["checkpoints": #"["2025-04-16T10:04:52Z"]"#]))
        add("Telemetry", .update, .iso8601, "checkpoints [\"yesterday\"]", telemetry(["checkpoints": #"["yesterday"]"#]), failsAt: "\(cs).checkpoints[0]")
        add("Telemetry", "deviceID lower-case", telemetry(["deviceID": #""e0d62919-9ef2-49c6-a108-85a227af3904""#]))
        add("Telemetry", "deviceID in braces", telemetry(["deviceID": #""{E0D62919-9EF2-49C6-A108-85A227AF3904}""#]), failsAt: "\(cs).deviceID")
        add("Telemetry", "window missing (Optional<Int>)", telemetry(drop: ["window"]))
        add("Telemetry", "retries missing (var retries = 0)", telemetry(drop: ["retries"]), failsAt: "\(cs).retries")
        add("Telemetry", "totals key with \\x escape", telemetry(["samples": "[]", "totals": #"{"\x":1}"#]), failsAt: "\(cs).totals")
        add("Telemetry", "bad escape in an unknown key", telemetry(["ignored": #""\x""#]))
        return rows
    }()

    func testCheckerAgreesWithJSONDecoderOnEveryRow() {
        let allRows = Self.rows + Self.shapeRows
        XCTAssertGreaterThanOrEqual(allRows.count, 150)
        let refused = OracleModel.all.filter { (try? ModelDeclaration.parse(source: $0.source, file: $0.name + ".swift")) == nil }
        XCTAssertEqual(refused.map(\.name), [], "every model file is read")
        XCTAssertGreaterThanOrEqual(OracleModel.all.count, 10)
        var lines: [String] = []
        let header = pad("#", 4) + pad("model", 13) + pad("event/strategy", 22) + pad("payload", 44) + pad("checker", 46) + pad("JSONDecoder", 46) + "agree"
        lines.append(header)
        lines.append(String(repeating: "-", count: header.count))
        var disagreements = 0
        for (number, row) in allRows.enumerated() {
            let oracle = OracleModel.named(row.model)
            let bytes = Array(row.payload.utf8)
            let failures = oracle.checker(row.strategy).check(payload: bytes, event: row.event)
            let decoder = oracle.decoderVerdict(bytes, event: row.event, strategy: row.strategy)
            let agrees = decoder.agrees(with: failures, expectedPath: row.failsAt)
            let asExpected = row.failsAt == nil ? failures.isEmpty : failures.first?.path == row.failsAt
            if !agrees || !asExpected { disagreements += 1 }
            let checkerText = failures.first.map { "FAIL \($0.path.isEmpty ? "(root)" : $0.path) \($0.reason.rawValue)" } ?? "ok"
            lines.append(pad("\(number + 1)", 4) + pad(row.model, 13) + pad("\(row.event.rawValue)/\(row.strategy.rawValue)", 22)
                + pad(row.summary, 44) + pad(checkerText, 46) + pad(decoder.description, 46) + (agrees && asExpected ? "yes" : "NO"))
            XCTAssertTrue(agrees, "row \(number + 1) \(row.summary): checker \(failures) vs decoder \(decoder) \(decoder.detail)")
            XCTAssertTrue(asExpected, "row \(number + 1) \(row.summary): expected \(row.failsAt ?? "ok"), checker says \(failures)")
        }
        let models = Set(allRows.map(\.model)).count
        lines.append("\(allRows.count) rows over \(models) models, \(allRows.count - disagreements) agree, \(refused.count) refused")
        print("\nORACLE AGREEMENT TABLE\n" + lines.joined(separator: "\n") + "\n")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        let clipped = text.count > width - 1 ? String(text.prefix(width - 2)) + "…" : text
        return clipped + String(repeating: " ", count: max(1, width - clipped.count))
    }
}
