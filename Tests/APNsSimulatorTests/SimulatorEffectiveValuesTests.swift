import APNsCore
import Foundation
import XCTest
@testable import APNsSimulator

/// A configuration by value, as reports carry it: every key of the table that holds a value, and what the file
/// and list keys were read from.
final class SimulatorEffectiveValuesTests: XCTestCase {
    func values(_ yaml: String, files: [String: String] = [:]) throws -> [String: String] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("effective-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        for (name, text) in files { try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        var c = SimulatorConfiguration()
        try SimulatorConfigFile.apply(yaml: yaml, file: dir.appendingPathComponent("sim.yaml").path, to: &c)
        return SimulatorKeys.effectiveValues(of: c)
    }

    func testEveryKeyThatHoldsAValueIsThereWithItsValue() throws {
        let v = try values("faults: { latency: { fixed: 80ms } }\nseed: 7\n")
        for key in SimulatorKeys.all where key.write != nil { XCTAssertNotNil(v[key.reportPath], key.reportPath) }
        XCTAssertEqual(v["faults.latency.fixed_ms"], "80")
        XCTAssertEqual(v["faults.latency.uniform_ms"], "none")
        XCTAssertEqual(v["seed"], "7")
        XCTAssertEqual(v["max_concurrent_streams"], "1000")
        XCTAssertEqual(v["device"], "off")
        XCTAssertEqual(v["device.wake_interval_seconds"], "600", "the device model's parameters at their defaults")
        XCTAssertEqual(v["topics"], "any topic")
    }

    func testTheDevicesFileIsNamedByItsDigestAndTheDeviceModelByItsParameters() throws {
        let token = String(repeating: "ab", count: 32)
        let a = try values("devices: { file: d.txt }\ndevice: { wake_interval: 1m }\n", files: ["d.txt": "\(token) com.example.app\n"])
        let b = try values("devices: { file: d.txt }\ndevice: { wake_interval: 1m }\n", files: ["d.txt": "\(token) com.example.other\n"])
        XCTAssertTrue(a["devices.file"]?.hasPrefix("sha256:") == true, "\(a["devices.file"] ?? "")")
        XCTAssertNotEqual(a["devices.file"], b["devices.file"], "another file's content, another digest")
        XCTAssertEqual(a["device"], "on")
        XCTAssertEqual(a["device.wake_interval_seconds"], "60")
    }
}
