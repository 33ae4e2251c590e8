import DeviceContract
import Foundation
import XCTest

/// The two apps' model files, parsed from disk and checked against their own documented payloads.
final class AppModelFileTests: XCTestCase {
    private func model(_ name: String) throws -> ActivityKitModel {
        try ModelDeclaration.parse(source: try TestFiles.text("profiles/models/\(name).swift"), file: "\(name).swift")
    }

    func testLeaveRequestModelReadsAsDocumented() throws {
        let leave = try model("LeaveRequestAttributes")
        print("\n" + leave.description + "\n")
        XCTAssertEqual(leave.attributesTypeName, "LeaveRequestAttributes")
        XCTAssertEqual(leave.attributesKeys, ["id", "studentName", "studentId", "requestTime", "reason"])
        XCTAssertEqual(leave.contentStateKeys, ["status", "responseTime", "respondedBy"])
    }

    func testISOResponseTimeDoesNotDecodeUnderDeferredToDate() throws {
        let check = PayloadCheck(model: try model("LeaveRequestAttributes"))
        let payload = #"{"aps":{"timestamp":1714042800,"event":"update","content-state":{"status":"approved","responseTime":"2025-04-16T10:04:52Z","#
            + #""respondedBy":"Jane Smith"}}}"#
        let failures = check.check(payload: Array(payload.utf8), event: .update)
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(failures.first?.path, "content-state.responseTime")
        XCTAssertEqual(failures.first?.reason, .badDate)
        XCTAssertEqual(failures.first?.message, #"expected Date (a number of seconds since 2001-01-01), found string "2025-04-16T10:04:52Z""#)

        let fixed = payload.replacingOccurrences(of: #""2025-04-16T10:04:52Z""#, with: "766490692")
        XCTAssertEqual(check.check(payload: Array(fixed.utf8), event: .update), [])
    }

    func testStartEventChecksAttributesToo() throws {
        let check = PayloadCheck(model: try model("LeaveRequestAttributes"))
        let payload = #"{"aps":{"timestamp":1714042800,"event":"start","attributes-type":"LeaveRequestAttributes","#
            + #""attributes":{"id":"E0D62919-9EF2-49C6-A108-85A227AF3904","studentName":"John Doe","studentId":1427,"requestTime":"2025-04-16T12:00:00Z","#
            + #""reason":null},"content-state":{"status":"pending"}}}"#
        let failures = check.check(payload: Array(payload.utf8), event: .start)
        XCTAssertEqual(failures.map(\.path), ["attributes.requestTime", "attributes.reason"])
        XCTAssertEqual(failures.map(\.reason), [.badDate, .nullForNonOptional])
        // The same payload as an update only decodes content-state, which is fine.
        XCTAssertEqual(check.check(payload: Array(payload.utf8), event: .update), [])
    }

    func testOrderChangesModelAcceptsItsDocumentedPayload() throws {
        let order = try model("OrderChangesAttributes")
        print("\n" + order.description + "\n")
        XCTAssertEqual(order.contentStateKeys, ["totalOrders", "lateOrders", "totalItems", "lastUpdated"])
        XCTAssertEqual(order.attributesKeys, [])
        let check = PayloadCheck(model: order)
        let documented = #"{"aps":{"timestamp":1740500000,"event":"update","content-state":{"totalOrders":15,"lateOrders":3,"totalItems":42,"#
            + #""lastUpdated":1740500000},"alert":{"title":"Cập nhật đơn hàng","body":"Có 3 đơn trễ cần xử lý"}}}"#
        XCTAssertEqual(check.check(payload: Array(documented.utf8), event: .update), [])
        XCTAssertEqual(check.check(payload: Array(documented.replacingOccurrences(of: "\"update\"", with: "\"end\"").utf8), event: .end), [])
        let lateAsText = documented.replacingOccurrences(of: #""lateOrders":3"#, with: #""lateOrders":"3""#)
        XCTAssertEqual(check.check(payload: Array(lateAsText.utf8), event: .update).map(\.path), ["content-state.lateOrders"])
    }
}
