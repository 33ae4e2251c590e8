@testable import APNsCore
import Foundation
import XCTest

final class PayloadTemplateTests: XCTestCase {
    /// The shipped leave-request template, from the repository.
    static var leaveTemplateText: String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("profiles/templates/leave-requests.json")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }

    func values(for t: PayloadTemplate, _ pairs: [String: PayloadTemplate.Value]) -> [PayloadTemplate.Value] {
        t.slotNames.map { pairs[$0] ?? .null }
    }

    /// The payload equals, key for key, the structure the leave-request app's documentation gives (with awkward
    /// names), with its dates as the app's model decodes them: numbers of seconds since 2001-01-01.
    func testLeaveTemplateMatchesTheAppsStructureKeyForKey() throws {
        let template = try PayloadTemplate(json: Self.leaveTemplateText, source: "leave-requests.json")
        let names = ["John \"JD\" Doe", "Back\\Slash Kid", "Sam 🎒 Lee", "Nguyễn Văn An", "李小龍", "Ахмед", "محمد", "Tab\tName\nNL\u{1}"]
        for name in names {
            let body = template.render(values(for: template, [
                "timestamp": .integer(1_714_042_800),
                "activity_id": .string("E0D62919-9EF2-49C6-A108-85A227AF3904"),
                "student_name": .string(name),
                "student_id": .integer(1427),
                "request_time": .fixedPoint(766_497_600_000, places: 3),  // 2025-04-16T12:00:00Z
                "reason": .string("Doctor's \"appointment\" \\ 🦷"),
                "status": .string("approved"),
                "response_time": .fixedPoint(766_490_692_250, places: 3),  // 2025-04-16T10:04:52.250Z
                "responded_by": .string("Jane Smith"),
                "event": .string("update"),
            ]))
            let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body)) as? NSDictionary, "not JSON: \(String(decoding: body, as: UTF8.self))")
            let expected: NSDictionary = [
                "aps": [
                    "timestamp": 1_714_042_800,
                    "attributes-type": "LeaveRequestAttributes",
                    "attributes": [
                        "id": "E0D62919-9EF2-49C6-A108-85A227AF3904",
                        "studentName": name,
                        "studentId": 1427,
                        "requestTime": 766_497_600,
                        "reason": "Doctor's \"appointment\" \\ 🦷",
                    ],
                    "content-state": [
                        "status": "approved",
                        "responseTime": 766_490_692.25,
                        "respondedBy": "Jane Smith",
                    ],
                    "event": "update",
                    "alert": ["title": "Leave Request Update", "body": "Your leave request status has been updated."],
                ],
                "activity-id": "E0D62919-9EF2-49C6-A108-85A227AF3904",
            ]
            XCTAssertEqual(parsed, expected, "name \(name)")
            // activity-id at the top level, not inside aps (as the leave-request app's documentation places it).
            XCTAssertNil((parsed["aps"] as? NSDictionary)?["activity-id"])
            // White space of the pretty-printed file is not sent.
            XCTAssertFalse(body.contains(UInt8(ascii: "\n")))
        }
    }

    func testTheShippedLeaveTemplateWritesAMissingReasonAsEmptyText() throws {
        let template = try PayloadTemplate(json: Self.leaveTemplateText, source: "leave-requests.json")
        let body = template.render(values(for: template, ["reason": .null, "responded_by": .null]))
        let aps = try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(body)) as? NSDictionary)?["aps"] as? NSDictionary)
        XCTAssertEqual((aps["attributes"] as? NSDictionary)?["reason"] as? String, "", "the app's reason is a String, never null")
        XCTAssertTrue((aps["content-state"] as? NSDictionary)?["respondedBy"] is NSNull, "respondedBy is optional: null stays")
    }

    func testFormatsAreReadAfterTheBarAndFixedPointNumbersAreWrittenBare() throws {
        let t = try PayloadTemplate(json: #"{"a":"{{#at|reference_date}}","b":"{{s|or_empty}}","c":"{{#at|reference_date}}","d":"{{#ms|unix_ms}}"}"#)
        XCTAssertEqual(t.slotNames, ["at", "s", "ms"])
        XCTAssertEqual(t.slotFormats, [.referenceDate, .orEmpty, .unixMillis])
        XCTAssertEqual(t.slotKinds, [.integer, .string, .integer])
        XCTAssertEqual(String(decoding: t.render([.fixedPoint(766_490_692_875, places: 3), .null, .integer(5)]), as: UTF8.self),
                       #"{"a":766490692.875,"b":"","c":766490692.875,"d":5}"#)
        XCTAssertEqual(String(decoding: t.render([.null, .string("x"), .null]), as: UTF8.self), #"{"a":null,"b":"x","c":null,"d":null}"#)
        var out: [UInt8] = []
        for (units, places, text) in [(1500, 3, "1.5"), (1000, 3, "1"), (-500, 3, "-0.5"), (5, 3, "0.005"), (-1_050, 2, "-10.5"),
                                      (0, 3, "0"), (42, 0, "42"), (Int64.min, 0, String(Int64.min)), (Int64.min, 3, "-9223372036854775.808")] {
            out.removeAll()
            JSONEscaping.appendFixedPoint(Int64(units), places: places, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), text, "\(units) at \(places) places")
            XCTAssertEqual((try? JSONSerialization.jsonObject(with: Data(out), options: .fragmentsAllowed)) as? NSNumber != nil, true, text)
        }
    }

    func testAFormatMustBeKnownAndFitTheSlot() {
        XCTAssertThrowsError(try PayloadTemplate(json: #"{"a":"{{#at|iso}}"}"#, source: "t.json")) { error in
            XCTAssertEqual(error as? PayloadTemplate.CompileError, .unknownFormat(source: "t.json", name: "at", format: "iso"))
            XCTAssertTrue("\(error)".contains("reference_date, unix, unix_ms, or_empty"), "\(error)")
        }
        XCTAssertThrowsError(try PayloadTemplate(json: #"{"a":"{{at|reference_date}}"}"#, source: "t.json")) { error in
            XCTAssertEqual(error as? PayloadTemplate.CompileError, .formatNeedsKind(source: "t.json", name: "at", format: .referenceDate))
            XCTAssertTrue("\(error)".contains(#""{{#at|reference_date}}""#), "\(error)")
        }
        XCTAssertThrowsError(try PayloadTemplate(json: #"{"a":"{{#s|or_empty}}"}"#, source: "t.json")) { error in
            XCTAssertEqual(error as? PayloadTemplate.CompileError, .formatNeedsKind(source: "t.json", name: "s", format: .orEmpty))
        }
        XCTAssertThrowsError(try PayloadTemplate(json: #"{"a":"{{#at|unix}}","b":"{{#at|unix_ms}}"}"#, source: "t.json")) { error in
            XCTAssertEqual(error as? PayloadTemplate.CompileError, .slotFormatConflict(source: "t.json", name: "at"))
        }
        // A splice has no format: the bar is not part of a name.
        XCTAssertThrowsError(try PayloadTemplate(json: #"{"a":"at {{s|or_empty}}"}"#, source: "t.json")) { error in
            XCTAssertEqual(error as? PayloadTemplate.CompileError, .badSlotName(source: "t.json", name: "s|or_empty"))
        }
    }

    func testNilValuesWriteNullAndSplicesWriteText() throws {
        let t = try PayloadTemplate(json: #"{"a":"{{x}}","b":"{{#n}}","c":"status: {{x}}!"}"#)
        XCTAssertEqual(t.slotNames, ["x", "n"])
        let nulls = String(decoding: t.render([.null, .null]), as: UTF8.self)
        XCTAssertEqual(nulls, #"{"a":null,"b":null,"c":"status: !"}"#)
        let filled = String(decoding: t.render([.string("ok\""), .integer(-42)]), as: UTF8.self)
        XCTAssertEqual(filled, #"{"a":"ok\"","b":-42,"c":"status: ok\"!"}"#)
    }

    func testRenderReusesTheBufferWithoutGrowing() throws {
        let t = try PayloadTemplate(json: Self.leaveTemplateText)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4096)
        let capacity = buffer.capacity
        for i in 0..<100 {
            t.render(into: &buffer, values: t.slotNames.map { $0 == "timestamp" ? .integer(i) : .string("v\(i)") })
        }
        XCTAssertEqual(buffer.capacity, capacity)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(buffer)) as? [String: Any])
    }

    func testBadTemplatesAreRefusedWithTheCauseNamed() {
        XCTAssertThrowsError(try PayloadTemplate(json: "{\"a\": ", source: "t.json")) { error in
            XCTAssertTrue("\(error)".contains("t.json"), "\(error)")
        }
        XCTAssertThrowsError(try PayloadTemplate(json: "[1,2]", source: "t.json")) { error in
            XCTAssertEqual(error as? PayloadTemplate.CompileError, .notAnObject(source: "t.json"))
        }
        XCTAssertThrowsError(try PayloadTemplate(json: #"{"a":"{{bad name}}"}"#, source: "t.json"))
        XCTAssertThrowsError(try PayloadTemplate(json: #"{"a":"{{x}}","b":"{{#x}}"}"#, source: "t.json")) { error in
            XCTAssertEqual(error as? PayloadTemplate.CompileError, .slotKindConflict(source: "t.json", name: "x"))
            XCTAssertEqual("\(error)", #"template t.json: slot 'x' is used both as a string and as an integer; give the integer use its own name, "#
                + #""{{#x_number}}", and fill both from one source in the recipe (slots: {x_number: x})"#)
        }
    }

    func testEscapingCoversControlCharactersAndKeepsUTF8() {
        var out: [UInt8] = []
        JSONEscaping.append("a\"b\\c\n\r\t\u{8}\u{c}\u{1}é🎒", to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), #"a\"b\\c\n\r\t\b\f\u0001é🎒"#)
        var n: [UInt8] = []
        for v in [0, 7, -7, Int.max, Int.min + 1] {
            n.removeAll()
            JSONEscaping.appendDecimal(v, to: &n)
            XCTAssertEqual(String(decoding: n, as: UTF8.self), String(v))
        }
    }
}
