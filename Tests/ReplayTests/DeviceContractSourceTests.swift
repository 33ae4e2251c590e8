import APNsCore
import DeviceContract
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// The device contract where pushes are planned: each Live Activity push of a part with a model is checked
/// as built, marked when it would not decode, and handed on unchanged.
final class DeviceContractSourceTests: XCTestCase {
    static let repo = RepoFiles.root

    static func leaveCheck() throws -> PayloadCheck {
        let path = repo.appendingPathComponent("profiles/models/LeaveRequestAttributes.swift").path
        return PayloadCheck(model: try ActivityKitModelLoader.read(path: path, attributesType: nil, profile: "p.yaml", line: nil).model)
    }

    static let token = String(repeating: "ab", count: 80)

    static func body(event: String, responseTime: String, reason: String = #""Dentist""#) -> String {
        #"{"aps":{"timestamp":1,"event":"\#(event)","attributes":{"id":"E0D6","studentName":"A","studentId":1,"requestTime":766490000,"reason":\#(reason)},"#
            + #""content-state":{"status":"approved","responseTime":\#(responseTime)}}}"#
    }

    /// The pushes a stage hands on, with their marks, from `bodies` (kind, body).
    func run(_ bodies: [(kind: Int32, body: String)], checks: [PayloadCheck?]) -> (stage: DeviceContractSource, out: [OutgoingPush]) {
        let upstream = FakePushSource(count: bodies.count) { n, push in
            push.deviceToken = Self.token
            push.kind = bodies[n].kind
            push.body = Array(bodies[n].body.utf8)
        }
        let stage = DeviceContractSource(upstream, checks: checks)
        var push = OutgoingPush()
        // A reused buffer still marked by an earlier push.
        push.contractFailure = 7
        push.contractSample = 7
        var out: [OutgoingPush] = []
        while case .push = stage.next(into: &push) { out.append(push) }
        return (stage, out)
    }

    func testFailingPushesAreMarkedAndHandedOnUnchanged() throws {
        let bodies: [(Int32, String)] = [
            (0, Self.body(event: "update", responseTime: "766490692")),
            (0, Self.body(event: "update", responseTime: #""2025-04-16T10:04:52Z""#)),
            (0, Self.body(event: "end", responseTime: #""2025-04-16T10:05:00Z""#)),
            (0, Self.body(event: "start", responseTime: #""2025-04-16T10:05:00Z""#, reason: "null")),
            (0, Self.body(event: "update", responseTime: "766490692", reason: "null")),
            (0, #"{"aps":{"content-state":{"status":"x"}}}"#),
        ]
        let (stage, out) = run(bodies, checks: [try Self.leaveCheck()])
        XCTAssertEqual(out.map { String(decoding: $0.body, as: UTF8.self) }, bodies.map(\.1), "what is sent is what was planned")
        XCTAssertEqual(out.map(\.contractFailure), [-1, 0, 0, 1, -1, -1])
        XCTAssertEqual(out.map(\.contractSample), [-1, 0, 1, 2, -1, -1])
        let f = stage.findings
        XCTAssertEqual(f.failureSets, [["content-state.responseTime: badDate"],
                                       ["attributes.reason: nullForNonOptional", "content-state.responseTime: badDate"]])
        XCTAssertEqual(f.checked, 5)
        XCTAssertEqual(f.failing, 3)
        XCTAssertEqual(f.notChecked, 1, "no aps.event")
        XCTAssertEqual(f.samples.map(\.event), ["update", "end", "start"])
        XCTAssertEqual(f.samples[0].token, DeviceToken.redacted(Self.token))
        XCTAssertFalse(f.samples[0].payload.contains(Self.token))
        XCTAssertTrue(f.samples[0].failures[0].hasPrefix("content-state.responseTime: badDate: expected Date"), f.samples[0].failures[0])
    }

    func testASamplesPushKeepsItsApnsIDToMatchItsAnswer() throws {
        let id = "123e4567-e89b-12d3-a456-426614174000"
        let bad = Self.body(event: "update", responseTime: #""2025-04-16T10:04:52Z""#)
        let upstream = FakePushSource(count: 2) { n, push in
            push.deviceToken = Self.token
            push.body = Array(bad.utf8)
            push.headers.update(APNsHeaders.apnsID) { $0.text = n == 0 ? Array(id.utf8) : [] }
        }
        let stage = DeviceContractSource(upstream, checks: [try Self.leaveCheck()])
        var push = OutgoingPush()
        while case .push = stage.next(into: &push) {}
        XCTAssertEqual(stage.findings.samples.map(\.headers), [["apns-id": id], nil])
        let json = String(decoding: try JSONEncoder().encode(stage.findings.samples), as: UTF8.self)
        XCTAssertTrue(json.contains(#""headers":{"apns-id":"\#(id)"}"#), json)
        XCTAssertEqual(json.components(separatedBy: #""headers""#).count, 2, "a push without one writes no key: \(json)")
    }

    func testOnlyThePartsWithAModelAreChecked() throws {
        let bad = Self.body(event: "update", responseTime: #""2025-04-16T10:04:52Z""#)
        let (stage, out) = run([(0, bad), (1, bad), (2, bad)], checks: [nil, try Self.leaveCheck()])
        XCTAssertEqual(out.map(\.contractFailure), [-1, 0, -1], "part 0 names no model; part 2 has no check at all")
        XCTAssertEqual(stage.findings.checked, 1)
    }

    func testArrayPlacesAreOneKey() {
        let failures = [DecodeFailure(path: "content-state.stops[0].name", reason: .typeMismatch, message: "m"),
                        DecodeFailure(path: "content-state.stops[12].name", reason: .typeMismatch, message: "m"),
                        DecodeFailure(path: "", reason: .invalidJSON, message: "m")]
        XCTAssertEqual(DeviceContractSource.keys(failures), ["content-state.stops[].name: typeMismatch", "payload: invalidJSON"])
    }

    /// A model with a part whose decoding is not known (its own init(from:)) still runs: pushes whose payload
    /// reaches that part count as checked partly, the rest of each payload is still checked, and the findings
    /// name the part.
    func testPushesReachingAnUncheckedPartCountAsCheckedPartly() throws {
        let source = """
            struct RouteAttributes: ActivityAttributes {
                struct ContentState: Codable, Hashable {
                    var waypoint: Waypoint?
                    var eta: Int
                }
                struct Waypoint: Codable, Hashable {
                    init(from decoder: Decoder) throws {}
                }
            }
            """
        let check = PayloadCheck(model: try ModelDeclaration.parse(source: source, file: "Route.swift"))
        let bodies: [(Int32, String)] = [
            (0, #"{"aps":{"event":"update","content-state":{"waypoint":"Central","eta":5}}}"#),
            (0, #"{"aps":{"event":"update","content-state":{"waypoint":{"any":1},"eta":"5"}}}"#),
            (0, #"{"aps":{"event":"update","content-state":{"eta":5}}}"#),
        ]
        let (stage, out) = run(bodies, checks: [check])
        XCTAssertEqual(out.map(\.contractFailure), [-1, 0, -1])
        let f = stage.findings
        XCTAssertEqual(f.checked, 3)
        XCTAssertEqual(f.checkedPartly, 2, "the third payload holds no waypoint, so it was checked fully")
        XCTAssertEqual(f.failureSets, [["content-state.eta: typeMismatch"]])
        XCTAssertEqual(f.uncheckedParts, ["RouteAttributes: RouteAttributes.Waypoint (line 7): its own init(from:) decides what it decodes"])
    }
}
