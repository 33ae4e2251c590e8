import APNsCore
import Foundation
import XCTest

/// `.omit` leaves a slot's member out of the payload, wherever it sits, and the payload stays JSON.
final class PayloadTemplateOmitTests: XCTestCase {
    private func render(_ json: String, _ values: [String: PayloadTemplate.Value]) throws -> String {
        let t = try PayloadTemplate(json: json, source: "t")
        let out = t.render(t.slotNames.map { values[$0] ?? .omit })
        XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(out)), "not JSON: \(String(decoding: out, as: UTF8.self))")
        return String(decoding: out, as: UTF8.self)
    }

    func testAnOmittedMemberGoesWithItsCommaWhereverItIs() throws {
        let json = #"{"a": "{{a}}", "b": "{{#b}}", "c": {"d": "{{d}}", "e": "x"}, "f": "{{f}}"}"#
        XCTAssertEqual(try render(json, ["a": .string("A"), "b": .integer(1), "d": .string("D"), "f": .string("F")]),
                       #"{"a":"A","b":1,"c":{"d":"D","e":"x"},"f":"F"}"#)
        XCTAssertEqual(try render(json, ["b": .integer(1), "d": .string("D"), "f": .string("F")]), #"{"b":1,"c":{"d":"D","e":"x"},"f":"F"}"#)
        XCTAssertEqual(try render(json, ["a": .string("A"), "d": .string("D"), "f": .string("F")]), #"{"a":"A","c":{"d":"D","e":"x"},"f":"F"}"#)
        XCTAssertEqual(try render(json, ["a": .string("A"), "b": .integer(1), "f": .string("F")]), #"{"a":"A","b":1,"c":{"e":"x"},"f":"F"}"#)
        XCTAssertEqual(try render(json, ["a": .string("A"), "b": .integer(1), "d": .string("D")]), #"{"a":"A","b":1,"c":{"d":"D","e":"x"}}"#)
        XCTAssertEqual(try render(json, [:]), #"{"c":{"e":"x"}}"#)
    }

    func testAnOmittedArrayElementAndASplicedSlot() throws {
        XCTAssertEqual(try render(#"{"l": ["{{a}}", "{{b}}"], "s": "hi {{n}}!"}"#, ["b": .string("B")]), #"{"l":["B"],"s":"hi !"}"#)
        XCTAssertEqual(try render(#"{"l": ["{{a}}", "{{b}}"]}"#, ["a": .string("A")]), #"{"l":["A"]}"#)
    }

    func testAKeyWithAnEscapedQuoteIsTakenBackWhole() throws {
        XCTAssertEqual(try render(#"{"x": 1, "say \"hi\"": "{{a}}", "y": 2}"#, [:]), #"{"x":1,"y":2}"#)
    }
}
