import APNsCore
import Foundation
import Harness
import Replay
import TestSupport

/// A prefix of a shipped order-changes recording (with planted dead tokens) and a profile for it, written to a
/// scratch folder: the input of the order-changes, workers, broadcast and report-page end-to-end tests.
enum OrderChangesFixture {
    /// Writes `s.ndjson`, `s.dead` and `p.yaml` into `scratch` and returns the profile's path.
    /// The recording is the first `lines` lines of ci-order-changes.ndjson (120 devices, 12 stores), or with
    /// `channels` of order-changes-channels.ndjson (each activity subscribed to its first store's channel).
    /// Every tenth device registration's token, from the first, is listed as dead.
    /// `settings` are profile lines added after the fixed ones (connections, streams, workers …).
    static func profile(in scratch: URL, name: String, lines: Int, settings: String, channels: Bool = false) throws -> String {
        let bytes = try RepoFiles.streamPrefix(channels ? "order-changes-channels" : "ci-order-changes", lines: lines)
        let tokens = String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { line -> String? in
            guard line.contains(#""kind":"device.register""#),
                  let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["push_token"] as? String
        }
        let dead = tokens.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
        let stream = scratch.appendingPathComponent("s.ndjson"), deadFile = scratch.appendingPathComponent("s.dead")
        try bytes.write(to: stream)
        try (dead.joined(separator: "\n") + "\n").write(to: deadFile, atomically: true, encoding: .utf8)
        let path = scratch.appendingPathComponent("p.yaml").path
        try """
            name: \(name)
            workload: order-changes
            stream: \(stream.path)
            dead_tokens: \(deadFile.path)
            recipe: \(RepoFiles.recipe("order-changes"))
            bundle_id: com.example.ordermanager
            \(settings)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `profile` in process, writing into a new folder under `scratch`, with the overrides `configure` sets:
    /// the run's result and the folder it wrote.
    static func run(_ profile: String, in scratch: URL, configure: (inout RunConfigOverrides) -> Void) throws -> (result: RunResult, out: String) {
        var request = RunRequest(profilePath: profile)
        request.outDirectory = scratch.appendingPathComponent("out-\(UUID().uuidString)").path
        configure(&request.overrides)
        return (try ReplayRun.execute(request, log: { _ in }), request.outDirectory)
    }
}
