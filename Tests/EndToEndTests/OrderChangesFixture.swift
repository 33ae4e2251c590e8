import Foundation
import Replay
import TestSupport

/// A generated order-changes recording (with its planted dead tokens) and a profile for it, written to a
/// scratch folder: the input of the order-changes and workers end-to-end tests.
enum OrderChangesFixture {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Writes `s.ndjson`, `s.dead` and `p.yaml` into `scratch` and returns the profile's path.
    /// `settings` are profile lines added after the fixed ones (connections, streams, workers …).
    /// `channels`: each activity subscribes to its first store's broadcast channel (`--channels`).
    static func profile(in scratch: URL, name: String, seed: UInt64, events: Int, devices: Int, stores: Int, settings: String,
                        channels: Bool = false) throws -> String {
        var lines: [UInt8] = []
        var dead: [String] = []
        var generator = OrderChangesGenerator(events: events, devices: devices, stores: stores, seed: seed)
        generator.channels = channels
        generator.write({ lines += $0 }, deadToken: { dead.append($0) })
        let stream = scratch.appendingPathComponent("s.ndjson"), deadFile = scratch.appendingPathComponent("s.dead")
        try Data(lines).write(to: stream)
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
}
