@testable import APNsSimulator
import XCTest

final class PayloadShapeTests: XCTestCase {
    func shape(_ s: String) -> PayloadShape { Array(s.utf8).withUnsafeBytes { PayloadShape($0) } }

    func testWellFormedObjectsAndTheirApsKeys() {
        let s = shape(#" {"aps":{"event":"start","alert":{"title":"a\"b\u00e9"},"n":[1,-2.5e3,true,null]},"x":{"aps":{"y":1}}} "#)
        XCTAssertTrue(s.isObject)
        XCTAssertEqual(s.apsKeys, ["event", "alert", "n"])
        XCTAssertEqual(s.event, "start")
        XCTAssertTrue(shape("{}").isObject)
        XCTAssertNil(shape("{}").apsKeys)
    }

    func testMalformedJSONIsNotAnObject() {
        for bad in ["", "[1]", "\"s\"", "{", #"{"a":}"#, #"{"a":1,}"#, #"{"a":01}"#, #"{"a":tru}"#, #"{"a":"\x"}"#, "{} {}", #"{"a":1}x"#, "{'a':1}"] {
            XCTAssertFalse(shape(bad).isObject, bad)
        }
    }

    func testApsKeysAreSkippedWhenNotAsked() {
        let json = #"{"aps":{"event":"start","alert":"x"},"k":[1,{"a":null}]}"#
        let s = Array(json.utf8).withUnsafeBytes { PayloadShape($0, collectAps: false) }
        XCTAssertTrue(s.isObject)
        XCTAssertNil(s.apsKeys)
        XCTAssertNil(s.event)
        for bad in ["[1]", #"{"aps":{"a":}}"#, #"{"aps":{"a":1}"#] {
            XCTAssertFalse(Array(bad.utf8).withUnsafeBytes { PayloadShape($0, collectAps: false) }.isObject, bad)
        }
    }
}
