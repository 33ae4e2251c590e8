import Foundation
import TestSupport
import XCTest

/// A command line of each writing command that reads one file of each kind it takes, all copies in a scratch
/// folder (a write the check let through would land on a copy), with what the command calls each input.
struct FixtureCommands {
    struct Invocation {
        let arguments: [String]
        let inputs: [(what: String, path: String)]

        /// These arguments with option `name` given `path` (in place of the value they give it, if any).
        func arguments(setting name: String, to path: String) -> [String] {
            var out: [String] = [], i = 0
            while i < arguments.count {
                if arguments[i] == name { i += 2; continue }
                out.append(arguments[i])
                i += 1
            }
            return out + [name, path]
        }
    }

    /// The commands the fixture covers, as their names from the root.
    static let names = ["apnsbench run", "apnsbench plan", "apnsbench recipe init", "apnsbench scale", "apnsbench sweep", "apnsbench report",
                        "apnsbench compare", "apnsbench merge", "apnsbench simulate", "apnsbench model fit"]

    let invocations: [String: [Invocation]]

    init(_ scratch: URL) throws {
        func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }
        try FileManager.default.copyItem(at: RepoFiles.root.appendingPathComponent("profiles"), to: scratch.appendingPathComponent("p"))
        for folder in ["key", "ca", "apns", "sim"] { try FileManager.default.createDirectory(atPath: path(folder), withIntermediateDirectories: true) }
        try "not a key, never read: refused first\n".write(toFile: path("key/AuthKey_ABCDEFGHIJ.p8"), atomically: true, encoding: .utf8)
        try "not a certificate, never read\n".write(toFile: path("ca/ca.pem"), atomically: true, encoding: .utf8)
        try "simulator:\n  faults: { round_trip: 5ms }\n".write(toFile: path("apns/model.yaml"), atomically: true, encoding: .utf8)
        try "faults: { round_trip: 5ms }\n".write(toFile: path("sim/sim.yaml"), atomically: true, encoding: .utf8)
        let profile = path("p/leave-requests.yaml"), recording = path("p/streams/leave-requests.ndjson")
        // Only its report is needed: a run that missed its SLO on a busy host (exit 99) wrote it too.
        let made = try apnsbench(["run", profile, "--quiet", "--out", path("base")])
        XCTAssertTrue(made.status == 0 || made.status == 99, "exit \(made.status): \(made.output)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("base/report.json")), made.output)
        for copy in ["new", "s0"] { try FileManager.default.copyItem(atPath: path("base"), toPath: path(copy)) }
        let key = ["--key-path", path("key/AuthKey_ABCDEFGHIJ.p8"), "--key-id", "ABCDEFGHIJ", "--team-id", "ABCDEFGHIJ"]
        let runFiles: [(what: String, path: String)] = [("the profile", profile), ("the recording", recording),
            ("the recipe", path("p/recipes/leave-requests.yaml")), ("the activity_model", path("p/models/LeaveRequestAttributes.swift"))]
        let simulator = runFiles + [("the APNs model file", path("apns/model.yaml")), ("the provider key", path("key/AuthKey_ABCDEFGHIJ.p8"))]
        let url = ["--target", "https://127.0.0.1:9", "--ca-cert", path("ca/ca.pem")]
        let sweep = [profile, "--rate", "1..2", "--step", "3s", "--repeats", "0"]
        invocations = [
            "run": [Invocation(arguments: ["run", profile, "--quiet", "--duration", "1s", "--apns-model", path("apns/model.yaml")] + key, inputs: simulator),
                    Invocation(arguments: ["run", profile, "--quiet", "--duration", "1s"] + url, inputs: [("the CA certificate", path("ca/ca.pem"))])],
            "plan": [Invocation(arguments: ["plan", profile, "--quiet"], inputs: runFiles)],
            "recipe init": [Invocation(arguments: ["recipe", "init", recording], inputs: [("the recording", recording)])],
            "scale": [Invocation(arguments: ["scale", recording, "--profile", profile, "--factor", "2"],
                                 inputs: [("the recording", recording), runFiles[0]] + runFiles.dropFirst(2))],
            "sweep": [Invocation(arguments: ["sweep"] + sweep + ["--apns-model", path("apns/model.yaml")] + key, inputs: simulator),
                      Invocation(arguments: ["sweep"] + sweep + url, inputs: [("the CA certificate", path("ca/ca.pem"))])],
            "report": [Invocation(arguments: ["report", path("base/report.json")], inputs: [("the report", path("base/report.json"))])],
            "model fit": [Invocation(arguments: ["model", "fit", path("base/report.json"), "--force"], inputs: [("the report", path("base/report.json"))])],
            "compare": [Invocation(arguments: ["compare", path("base"), path("new")],
                                   inputs: [("the baseline report", path("base/report.json")), ("the new report", path("new/report.json"))])],
            "merge": [Invocation(arguments: ["merge", path("s0"), "--out", path("merged")], inputs: [("the shard report", path("s0/report.json"))])],
            "simulate": [Invocation(arguments: ["simulate", "--port", "0", "--duration", "1s", "--config", path("sim/sim.yaml"), "--report", path("simreport"),
                                                "--activity-model", path("p/models/LeaveRequestAttributes.swift")] + key,
                                    inputs: [("the simulator's configuration", path("sim/sim.yaml")),
                                             ("the ActivityKit model", path("p/models/LeaveRequestAttributes.swift")),
                                             ("the provider key", path("key/AuthKey_ABCDEFGHIJ.p8"))])],
        ]
    }
}
