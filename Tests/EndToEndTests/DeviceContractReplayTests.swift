import APNsCore
import Foundation
@testable import Harness
import Replay
import Reporting
import TestSupport
import XCTest

/// The device contract end to end: profile → workload → check → embedded simulator → report. A push that
/// fails the check is still sent; when it is delivered it counts as delivered, would not decode on device.
final class DeviceContractReplayTests: XCTestCase {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = try ScratchFolder.make("contract", removedBy: addTeardownBlock)
    }

    func run(_ profile: String) throws -> RunReport {
        var request = RunRequest(profilePath: profile)
        request.outDirectory = scratch.appendingPathComponent("out-\(UUID().uuidString)").path
        return try ReplayRun.execute(request, log: { _ in }).report
    }

    func shipped(_ name: String) -> String { Self.repo.appendingPathComponent("profiles/\(name).yaml").path }

    /// Every push of `profile`'s whole recording, through the pipeline a run builds (the workload, coalescing,
    /// the device contract's check), pulled to its end without an engine or target: what the check found, and
    /// how many pushes it handed on to be sent.
    func walk(_ profile: String) throws -> (findings: ContractFindings, toSend: Int) {
        let config = try ReplayRun.configuration(RunRequest(profilePath: profile))
        let inputs = try RunInputs(config, credentials: Credentials())
        let pipeline = SendPipeline(try Workloads.replay(config, recipes: inputs.recipes), config, checks: inputs.contractChecks, kindTypes: inputs.kindTypes)
        var push = OutgoingPush(), toSend = 0
        pulling: while true {
            switch pipeline.source.next(into: &push) {
            case .push: toSend += 1
            case .notSent, .idle: continue
            case .end: break pulling
            }
        }
        return (try XCTUnwrap(pipeline.contract, profile).findings, toSend)
    }

    /// Every push the two shipped recordings plan (leave-requests 1,126 events, order-changes 6,000 events and
    /// 18,040 pushes) is checked and decodes; the check's findings reach the report of a run (leave-requests,
    /// whole), where every delivered push was checked. Sending the whole of order-changes through the
    /// simulator too would check the same payloads again, at a debug build's few hundred pushes a second.
    func testTheShippedProfilesSendPayloadsTheirAppsDecode() throws {
        for name in ["leave-requests", "order-changes"] {
            let (findings, toSend) = try walk(shipped(name))
            XCTAssertEqual(findings.failing, 0, "\(name): \(findings.failureSets) \(findings.samples.map(\.failures))")
            XCTAssertEqual(findings.notChecked, 0, name)
            XCTAssertEqual(findings.checked, toSend, "\(name): every push to send was checked")
            XCTAssertGreaterThan(toSend, 0, name)
        }
        let report = try run(shipped("leave-requests"))
        let w = try XCTUnwrap(report.pushes.wouldNotDecode)
        XCTAssertEqual(w.total, 0, "\(w.byField)")
        XCTAssertEqual(w.failedCheck, 0)
        XCTAssertEqual(w.notChecked, 0)
        XCTAssertGreaterThanOrEqual(w.checked, report.pushes.delivered, "every delivered push was checked")
        XCTAssertGreaterThan(report.pushes.delivered, 0)
        XCTAssertEqual(report.violations(), [])
    }

    func testISODatesAreCaughtOnEveryDeliveredUpdateAndEnd() throws {
        let report = try run(shipped("examples/leave-requests-iso-dates"))
        let p = report.pushes
        let w = try XCTUnwrap(p.wouldNotDecode)
        XCTAssertGreaterThan(p.delivered, 600)
        XCTAssertEqual(w.total, p.delivered, "every update and end carries an ISO responseTime")
        XCTAssertEqual(w.byField, ["content-state.responseTime: badDate": p.delivered], "updates decode content-state only")
        XCTAssertEqual(w.samples.count, 5)
        XCTAssertEqual(Set(w.samples.compactMap(\.event)).subtracting(["update", "end"]), [])
        XCTAssertEqual(report.violations(), [])
        XCTAssertEqual(report.simulator?["accepted"], p.delivered, "APNs accepts every one of them")
    }

    /// As push-to-start, the same payloads decode attributes too: the ISO requestTime on every push, and the
    /// null reason on the pushes of requests created without one.
    func testAsPushToStartTheAttributesFailTooTheReasonOnlyWhereItIsNull() throws {
        let report = try run(shipped("examples/leave-requests-start-iso-dates"))
        let p = report.pushes
        let w = try XCTUnwrap(p.wouldNotDecode)
        XCTAssertEqual(w.total, p.delivered)
        XCTAssertEqual(w.byField["attributes.requestTime: badDate"], p.delivered)
        XCTAssertEqual(w.byField["content-state.responseTime: badDate"], p.delivered)
        XCTAssertEqual(w.byField["attributes.reason: nullForNonOptional"], try Self.pushesOfRequestsWithoutAReason())
        XCTAssertEqual(w.byField.count, 3)
        XCTAssertEqual(Set(w.samples.compactMap(\.event)), ["start"])
    }

    /// Status changes of the shipped recording that are sent (their request has a token by then) for a
    /// request created with a null reason.
    static func pushesOfRequestsWithoutAReason() throws -> Int {
        let text = try String(contentsOf: repo.appendingPathComponent("profiles/streams/leave-requests.ndjson"), encoding: .utf8)
        var requests: [Int: (nullReason: Bool, token: Bool)] = [:]
        var count = 0
        for line in text.split(separator: "\n") {
            guard let e = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let id = e["request_id"] as? Int else { continue }
            switch e["kind"] as? String {
            case "leave.created": requests[id] = (e["reason"] is NSNull || e["reason"] == nil, e["token"] is String)
            case "leave.token": requests[id]?.token = true
            case "leave.status": if let r = requests[id], r.token, r.nullReason { count += 1 }
            default: break
            }
        }
        XCTAssertGreaterThan(count, 0, "the recording has requests without a reason")
        return count
    }

    /// A small recording against a model whose status is an enum the backend has outgrown: exactly the
    /// delivered pushes with the planted status count, not the one answered 410, not the one never sent.
    func testExactlyThePlantedDeliveredPushesAreCounted() throws {
        let model = """
            import ActivityKit
            import Foundation

            struct LeaveRequestAttributes: ActivityAttributes {
                public struct ContentState: Codable, Hashable {
                    enum Status: String, Codable, Hashable { case pending, approved, rejected, finished }
                    var status: Status
                    var responseTime: Date?
                    var respondedBy: String?
                }

                let id: String
                let studentName: String
                let studentId: Int
                let requestTime: Date
                let reason: String
            }

            """
        let tokens = (1...4).map { String(repeating: String(format: "%02x", $0), count: 80) }
        func created(_ id: Int, token: String?, at: String) -> String {
            #"{"at":"2025-04-16T07:\#(at)Z","kind":"leave.created","request_id":\#(id),"student_id":\#(id),"student_name":"S\#(id)","request_type":"early","#
                + #""reason":null,"activity_id":"A\#(id)","token":\#(token.map { "\"\($0)\"" } ?? "null")}"#
        }
        func status(_ id: Int, _ status: String, at: String) -> String {
            #"{"at":"2025-04-16T07:\#(at)Z","kind":"leave.status","request_id":\#(id),"status":"\#(status)","staff_name":"Jane"}"#
        }
        let lines = [
            created(1, token: tokens[0], at: "00:00"), created(2, token: tokens[1], at: "00:01"),
            created(3, token: tokens[2], at: "00:02"), created(4, token: nil, at: "00:03"),
            status(1, "approved", at: "01:00"), status(1, "sent", at: "01:01"),     // planted, delivered
            status(2, "sent", at: "01:02"), status(2, "approved", at: "01:03"),     // planted, delivered
            status(3, "sent", at: "01:04"),                                          // planted, answered 410
            status(4, "sent", at: "01:05"),                                          // planted, no token: never sent
            status(1, "finished", at: "01:06"), status(2, "rejected", at: "01:07"),
        ]
        try model.write(to: scratch.appendingPathComponent("Model.swift"), atomically: true, encoding: .utf8)
        try (lines.joined(separator: "\n") + "\n").write(to: scratch.appendingPathComponent("s.ndjson"), atomically: true, encoding: .utf8)
        try (tokens[2] + "\n").write(to: scratch.appendingPathComponent("dead"), atomically: true, encoding: .utf8)
        let profile = scratch.appendingPathComponent("p.yaml").path
        try """
            name: planted
            workload: leave-requests
            stream: s.ndjson
            recipe: \(RepoFiles.recipe("leave-requests"))
            activity_model: Model.swift
            dead_tokens: dead
            bundle_id: com.example.leaverequests

            """.write(toFile: profile, atomically: true, encoding: .utf8)
        let report = try run(profile)
        let p = report.pushes
        XCTAssertEqual(p.planned, 8)
        XCTAssertEqual(p.delivered, 6)
        XCTAssertEqual(p.rejected["Unregistered"]?.count, 1)
        XCTAssertEqual(p.notSent, ["no_token": 1])
        let w = try XCTUnwrap(p.wouldNotDecode)
        XCTAssertEqual(w.total, 2, "the two planted pushes that were delivered")
        XCTAssertEqual(w.byField, ["content-state.status: badEnumValue": 2])
        XCTAssertEqual(w.failedCheck, 3, "the one answered 410 failed the check too")
        XCTAssertEqual(w.checked, 7, "every push sent; the one without a token was never built")
        XCTAssertEqual(w.samples.count, 2)
        XCTAssertTrue(w.samples.allSatisfy { $0.failures.count == 1 && $0.failures[0].hasPrefix(#"content-state.status: badEnumValue: "#
            + #"string "sent" is not a case of"#) },
                      "\(w.samples.map(\.failures))")
        XCTAssertFalse(w.samples.contains { $0.payload.contains(tokens[0]) || $0.token.contains(tokens[0]) }, "tokens redacted")
        XCTAssertEqual(report.violations(), [])
        // The report on disk says the same, with the model it checked against.
        XCTAssertEqual(report.configuration.workload.activityModel?.sha256, try FileDigest.sha256(path: scratch.appendingPathComponent("Model.swift").path))
    }

    func testAModelOutsideTheSubsetStopsTheRunBeforeItStarts() throws {
        try "struct A: ActivityAttributes {\n    public struct ContentState: Codable, Hashable {\n        var x: (Int, Int)\n    }\n}\n"
            .write(to: scratch.appendingPathComponent("Tuple.swift"), atomically: true, encoding: .utf8)
        let profile = scratch.appendingPathComponent("p.yaml").path
        try "name: t\nworkload: leave-requests\nstream: s.ndjson\nrecipe: \(RepoFiles.recipe("leave-requests"))\nbundle_id: b\nactivity_model: Tuple.swift\n"
            .write(toFile: profile, atomically: true, encoding: .utf8)
        var request = RunRequest(profilePath: profile)
        request.outDirectory = scratch.appendingPathComponent("out").path
        XCTAssertThrowsError(try ReplayRun.execute(request, log: { _ in })) { error in
            XCTAssertTrue("\(error)".contains("Tuple.swift:3: "), "\(error)")
            XCTAssertTrue("\(error)".contains("p.yaml:6 names in 'activity_model'"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: request.outDirectory), "nothing ran")
    }
}
