import APNsCore
import Foundation
import TestSupport
import XCTest

/// A scratch folder with a small leave-requests recording and the run configurations the Harness tests use.
struct HarnessFixture {
    static let repo = RepoFiles.root
    /// The shipped leave-requests recipe (absolute).
    static let recipe = RepoFiles.recipe("leave-requests")
    static let tokens = (1...4).map { String(format: "%02x", $0) + String(repeating: "ab", count: 31) }

    let folder: URL

    /// A fresh folder, removed when `test` ends.
    init(_ test: XCTestCase) throws {
        folder = try ScratchFolder.make("harness", removedBy: test.addTeardownBlock)
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Writes `text` to `name` in the folder; its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// Seven pushes in recorded time: 2 in 07:00:10, 1 at 07:00:40, then 4 in the minute from 07:02:30
    /// (2 of them in 07:02:31). Request 3 has no token: its status change is planned but not sent.
    static let recording = [
        created(1, "07:00:00", token: tokens[0]), created(2, "07:00:00", token: tokens[1]), created(3, "07:00:00", token: nil),
        created(4, "07:00:00", token: tokens[3]),
        status(1, "07:00:10.100", "pending"), status(2, "07:00:10.900", "pending"), status(3, "07:00:10.950", "pending"),
        status(1, "07:00:40", "approved"), status(2, "07:02:30", "approved"),
        status(1, "07:02:31.200", "finished"), status(2, "07:02:31.700", "finished"), status(4, "07:02:45", "approved"),
    ].joined(separator: "\n") + "\n"

    static func created(_ id: Int, _ time: String, token: String?) -> String {
        #"{"at":"2025-04-16T\#(time)Z","kind":"leave.created","request_id":\#(id),"student_id":\#(id),"student_name":"S\#(id)","request_type":"early","#
            + #""reason":null,"activity_id":"E0D62919-9EF2-49C6-A108-85A227AF390\#(id)","token":\#(token.map { "\"\($0)\"" } ?? "null")}"#
    }

    static func status(_ id: Int, _ time: String, _ status: String) -> String {
        #"{"at":"2025-04-16T\#(time)Z","kind":"leave.status","request_id":\#(id),"status":"\#(status)","staff_id":3,"staff_name":"Jane"}"#
    }

    /// The recording above written to `s.ndjson`, in a leave-requests configuration against the embedded simulator.
    func config() throws -> RunConfig {
        let stream = try write("s.ndjson", Self.recording)
        return RunConfig(name: "harness", profilePath: path("p.yaml"),
                         workload: .init(name: "leave-requests", stream: stream, recipe: Self.recipe, bundleID: "com.example.leaverequests"))
    }

    /// The same recording as a profile file, with `extra` lines; its path.
    func profile(extra: String = "") throws -> String {
        let stream = try write("s.ndjson", Self.recording)
        return try write("p.yaml", """
            name: harness
            workload: leave-requests
            stream: \(stream)
            recipe: \(Self.recipe)
            bundle_id: com.example.leaverequests
            \(extra)
            """)
    }

    /// The shipped leave-requests recipe copied into the folder with `template:` naming `template` instead
    /// (relative to the copy); the copy's path.
    func recipe(template: String) throws -> String {
        let text = try String(contentsOfFile: Self.recipe, encoding: .utf8)
        return try write("r.yaml", text.replacingOccurrences(of: "template: ../templates/leave-requests.json", with: "template: \(template)"))
    }

    /// A fresh provider key written as a .p8; the key and its path.
    func key() throws -> (key: SigningKey, path: String) {
        let key = SigningKey.generate(keyID: "HARNESS001", teamID: "HARNESSTM1")
        return (key, try write("AuthKey_HARNESS001.p8", key.privateKey.pkcs8PEM))
    }
}
