import APNsCore
@testable import APNsSimulator
import XCTest

final class PayloadShapeTests: XCTestCase {
    /// One tape for every shape read here, as a connection keeps one: a shape must not depend on what the
    /// tape held before.
    var tape = JSONTape()
    let names = ["event", "alert", "n", "attributes"]

    func shape(_ s: String, watching: Bool = true) -> PayloadShape {
        let keys = watching ? names.map { Array($0.utf8) } : nil
        return Array(s.utf8).withUnsafeBytes { PayloadShape($0, watching: keys, tape: &tape) }
    }

    /// The watched names an `aps` holds, from the shape's bits.
    func keys(_ s: PayloadShape) -> Set<String>? {
        s.apsKeys.map { set in Set(names.indices.filter { set.contains($0) }.map { names[$0] }) }
    }

    func testWellFormedObjectsAndTheirApsKeys() {
        let s = shape(#" {"aps":{"event":"start","alert":{"title":"a\"b\u00e9"},"n":[1,-2.5e3,true,null]},"x":{"aps":{"y":1}}} "#)
        XCTAssertTrue(s.isObject)
        XCTAssertEqual(keys(s), ["event", "alert", "n"])
        XCTAssertTrue(s.isStartEvent)
        XCTAssertTrue(shape("{}").isObject)
        XCTAssertNil(shape("{}").apsKeys)
        XCTAssertFalse(shape(#"{"aps":{"event":"update"}}"#).isStartEvent)
    }

    func testMalformedJSONIsNotAnObject() {
        for bad in ["", "[1]", "\"s\"", "{", #"{"a":}"#, #"{"a":1,}"#, #"{"a":01}"#, #"{"a":tru}"#, #"{"a":"\x"}"#, "{} {}", #"{"a":1}x"#, "{'a':1}"] {
            XCTAssertFalse(shape(bad).isObject, bad)
        }
    }

    /// What JSONDecoder's grammar (the tape's) allows and RFC 8259's refuses: each is not an object here.
    func testTheTapesLenienciesAreRefused() {
        let bad = [
            "\u{FEFF}{}",                                    // a byte-order mark
            #"{"a":[1,]}"#, #"{"a":[1 , ]}"#, #"{"a":{"b":1 ,}}"#,  // trailing commas
            #"{"a":1.}"#, #"{"a":-}"#, #"{"a":1e}"#, #"{"a":1-2}"#, #"{"a":-01}"#,  // numbers
            "{\"a\":\"tab\there\"}", "{\"a\u{1}\":1}",          // control characters, in a value and in a key
            #"{"a":"\u12G4"}"#, #"{"a":"\'"}"#,              // escapes
        ]
        for payload in bad {
            XCTAssertTrue(Array(payload.utf8).withUnsafeBufferPointer { (try? tape.scan($0)) != nil }, "the tape takes \(payload)")
            XCTAssertFalse(shape(payload).isObject, payload)
        }
        let good = [#"{"a":[1, 2],"b":{"c":-0.5E+7}}"#, #"{"a":"\"\\\/\b\f\n\r\t\u00aF"}"#, "\t\r\n {\"a\":\"é\"} "]
        for payload in good { XCTAssertTrue(shape(payload).isObject, payload) }
    }

    /// Values may stand 64 levels below the top-level object, not 65; an empty container at level 64 is fine.
    func testNestingStopsSixtyFourLevelsBelowTheTop() {
        func nested(_ levels: Int, _ inner: String) -> String {
            String(repeating: #"{"a":["#, count: levels / 2) + (levels % 2 == 1 ? "[" : "") + inner
                + (levels % 2 == 1 ? "]" : "") + String(repeating: "]}", count: levels / 2)
        }
        // `levels` containers around `inner`, the top-level object among them: `inner` stands at level `levels`.
        XCTAssertTrue(shape(nested(64, "1")).isObject)
        XCTAssertTrue(shape(nested(64, "{}")).isObject)
        XCTAssertTrue(shape(nested(64, "[]")).isObject)
        XCTAssertFalse(shape(nested(65, "1")).isObject)
        XCTAssertFalse(shape(nested(64, "[1]")).isObject)
        XCTAssertFalse(shape(nested(64, #"{"b":1}"#)).isObject)
    }

    /// The last `aps` whose value is an object gives the keys; `aps.event` is the last string one read.
    func testSeveralApsKeysAndEvents() {
        let twice = shape(#"{"aps":{"event":"start","alert":1},"aps":{"attributes":{}},"aps":7}"#)
        XCTAssertEqual(keys(twice), ["attributes"])
        XCTAssertTrue(twice.isStartEvent, "an event read in an earlier aps stays")
        XCTAssertTrue(shape(#"{"aps":{"event":"update","event":"start","event":3}}"#).isStartEvent)
        XCTAssertFalse(shape(#"{"aps":{"event":"start","event":"end"}}"#).isStartEvent)
        XCTAssertNil(shape(#"{"aps":["event"]}"#).apsKeys)
        XCTAssertEqual(keys(shape(#"{"aps":{}}"#)), [])
        XCTAssertNil(shape(#"{"x":{"aps":{"event":"start"}}}"#).apsKeys, "only the top-level aps")
    }

    /// Keys and the event are compared as they stand in the bytes: an escape is not decoded.
    func testEscapedKeysAreNotTheirDecodedText() {
        let s = shape(#"{"aps":{"ev\u0065nt":"start","alert":"st\u0061rt","event":"st\u0061rt"}}"#)
        XCTAssertTrue(s.isObject)
        XCTAssertEqual(keys(s), ["alert", "event"])
        XCTAssertFalse(s.isStartEvent)
        XCTAssertNil(shape(#"{"\u0061ps":{"event":"start"}}"#).apsKeys)
    }

    func testApsKeysAreSkippedWhenNotAsked() {
        let s = shape(#"{"aps":{"event":"start","alert":"x"},"k":[1,{"a":null}]}"#, watching: false)
        XCTAssertTrue(s.isObject)
        XCTAssertNil(s.apsKeys)
        XCTAssertFalse(s.isStartEvent)
        for bad in ["[1]", #"{"aps":{"a":}}"#, #"{"aps":{"a":1}"#] {
            XCTAssertFalse(shape(bad, watching: false).isObject, bad)
        }
    }
}
