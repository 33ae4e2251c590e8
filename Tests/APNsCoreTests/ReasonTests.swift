@testable import APNsCore
import XCTest

final class ReasonTests: XCTestCase {
    func testEveryDocumentedReasonHasItsStatus() {
        XCTAssertEqual(Reason.all.count, Set(Reason.all.map(\.rawValue)).count, "duplicate rows")
        XCTAssertEqual(Reason(rawValue: "BadDeviceToken").status, 400)
        XCTAssertEqual(Reason(rawValue: "ExpiredProviderToken").status, 403)
        XCTAssertEqual(Reason(rawValue: "Unregistered").status, 410)
        XCTAssertEqual(Reason(rawValue: "TooManyRequests").status, 429)
        XCTAssertEqual(Reason(rawValue: "Shutdown").status, 503)
        let unknown = Reason(rawValue: "SomethingNew")
        XCTAssertEqual(unknown.status, 0)
        XCTAssertEqual(unknown.handling, .unknown)
    }

    func testParseFindsTheReasonInAnErrorBody() {
        XCTAssertEqual(Reason.parse(body: Array(#"{"reason":"BadDeviceToken"}"#.utf8)), .badDeviceToken)
        XCTAssertEqual(Reason.parse(body: Array(#"{"reason" : "Unregistered","timestamp":1700000000000}"#.utf8)), .unregistered)
        XCTAssertEqual(Reason.parse(body: Array(#"{"reason":"NewOne"}"#.utf8))?.rawValue, "NewOne")
        XCTAssertNil(Reason.parse(body: Array(#"{"other":"x"}"#.utf8)))
        XCTAssertNil(Reason.parse(body: Array(#"{"reason":"unterminated"#.utf8)))
        XCTAssertNil(Reason.parse(body: [UInt8]()))
    }

    func testDeviceTokensOfAnyEvenHexLengthFrom64To200AreValid() {
        XCTAssertTrue(DeviceToken.isValid(String(repeating: "a", count: 64)))
        XCTAssertTrue(DeviceToken.isValid(String(repeating: "F", count: 160)))
        XCTAssertTrue(DeviceToken.isValid(String(repeating: "0", count: 200)))
        XCTAssertFalse(DeviceToken.isValid(String(repeating: "a", count: 62)))
        XCTAssertFalse(DeviceToken.isValid(String(repeating: "a", count: 65)))
        XCTAssertFalse(DeviceToken.isValid(String(repeating: "a", count: 202)))
        XCTAssertFalse(DeviceToken.isValid(String(repeating: "g", count: 64)))
        XCTAssertEqual(DeviceToken.redacted(String(repeating: "ab", count: 80)), "abababab…(160)")
    }

    func testTopicSuffixesMapToPushTypes() {
        XCTAssertEqual(PushType.suffixType(ofTopic: "com.a.b.push-type.liveactivity"), .liveactivity)
        XCTAssertEqual(PushType.suffixType(ofTopic: "com.a.b.voip-ptt"), .pushtotalk)
        XCTAssertEqual(PushType.suffixType(ofTopic: "com.a.b.voip"), .voip)
        XCTAssertNil(PushType.suffixType(ofTopic: "com.a.b"))
        XCTAssertEqual(PushType.voip.payloadLimit, 5120)
    }
}
