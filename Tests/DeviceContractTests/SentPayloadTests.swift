import DeviceContract
import Foundation
import XCTest

/// `checkAsSent` reads the event from the payload itself, as the device does, and checks it as that event.
final class SentPayloadTests: XCTestCase {
    private func check() throws -> PayloadCheck {
        PayloadCheck(model: try ModelDeclaration.parse(source: leaveRequestDeclaration, file: "LeaveRequestAttributes.swift"))
    }

    private func payload(event: String, responseTime: String = "766490692", reason: String = #""Dentist""#) -> [UInt8] {
        let json = #"{"aps":{"timestamp":1,"event":\#(event),"attributes":{"id":"E0D6","studentName":"A","studentId":1,"requestTime":766490000,"#
            + #""reason":\#(reason)},"content-state":{"status":"approved","responseTime":\#(responseTime)}}}"#
        return Array(json.utf8)
    }

    func testTheEventIsTheOneThePayloadNames() throws {
        let check = try check()
        XCTAssertEqual(check.checkAsSent(payload: payload(event: #""update""#)), .checked(.update, []))
        XCTAssertEqual(check.checkAsSent(payload: payload(event: #""end""#)), .checked(.end, []))
        XCTAssertEqual(check.checkAsSent(payload: payload(event: #""start""#)), .checked(.start, []))
        // Escaped text names the same event.
        XCTAssertEqual(check.checkAsSent(payload: payload(event: #""\u0065nd""#)), .checked(.end, []))
    }

    func testAStartChecksAttributesWhereAnUpdateDoesNot() throws {
        let check = try check()
        let nullReason = payload(event: #""start""#, reason: "null")
        XCTAssertEqual(check.checkAsSent(payload: nullReason).failures.map(\.path), ["attributes.reason"])
        let asUpdate = payload(event: #""update""#, reason: "null")
        XCTAssertEqual(check.checkAsSent(payload: asUpdate), .checked(.update, []))
        let isoDate = payload(event: #""update""#, responseTime: #""2025-04-16T10:04:52Z""#)
        guard case .checked(.update, let failures) = check.checkAsSent(payload: isoDate) else { return XCTFail("checked as an update") }
        XCTAssertEqual(failures.map(\.path), ["content-state.responseTime"])
        XCTAssertEqual(failures.map(\.reason), [.badDate])
    }

    func testAPayloadWithoutAnEventIsNotChecked() throws {
        let check = try check()
        for event in [#""Update""#, #""stop""#, "1", "null", #"{"a":1}"#] {
            XCTAssertEqual(check.checkAsSent(payload: payload(event: event)), .noEvent, event)
        }
        XCTAssertEqual(check.checkAsSent(payload: Array(#"{"aps":{"content-state":{"status":"x"}}}"#.utf8)), .noEvent)
        XCTAssertEqual(check.checkAsSent(payload: Array(#"{"aps":[1]}"#.utf8)), .noEvent)
        XCTAssertEqual(check.checkAsSent(payload: Array("[]".utf8)), .noEvent)
    }

    func testTextThatIsNotJSONIsInvalidWhateverTheEvent() throws {
        let verdict = try check().checkAsSent(payload: Array(#"{"aps":{"event":"update","content-state":{"status":"x"}}"#.utf8))
        guard case .invalidJSON(let failure) = verdict else { return XCTFail("\(verdict)") }
        XCTAssertEqual(failure.reason, .invalidJSON)
        XCTAssertEqual(verdict.failures.count, 1)
    }
}
