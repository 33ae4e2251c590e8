import APNsCore
import Foundation
import Reporting
import XCTest
@testable import Harness

/// `sweep --vary KEY=V1,V2`: the arguments parsed, and every combination run with its values in its
/// configuration. Checked through what a user sees (the parse's answer, the runs' reports), not through
/// how the names map to fields.
final class TuningMatrixTests: XCTestCase {
    struct Refused: Error, CustomStringConvertible { let description: String }

    /// One `--vary` argument parsed: its key and values, or the error's text.
    func vary(_ argument: String) -> Result<(key: String, values: [String]), Refused> {
        TuningMatrix.parse(argument).mapError { Refused(description: "\($0)") }
    }

    func testParsesAKeyAndItsValuesInOrder() throws {
        let connections = try vary("connections=4,1, 2").get()
        XCTAssertEqual(connections.key, "connections")
        XCTAssertEqual(connections.values, ["4", "1", "2"], "in the order given, spaces trimmed")
        XCTAssertEqual(try vary("delivery=device,broadcast").get().values, ["device", "broadcast"])
        XCTAssertEqual(try vary("coalesce=0,250ms").get().values, ["0", "250ms"])
        XCTAssertEqual(try vary("streams=10").get().values, ["10"], "one value is a run of its own")
    }

    func testRefusesAMalformedArgumentNamingIt() {
        for (argument, expected) in [
            ("connections", "--vary 'connections' must be KEY=V1,V2"),
            ("connections=", "--vary 'connections=' must be KEY=V1,V2"),
            ("colour=red,blue", "'colour' cannot be varied"),
            ("connections=1,1", "--vary 'connections=1,1' needs distinct"),
            ("connections=1, ,2", "--vary 'connections=1, ,2' needs distinct, non-empty values"),
            ("connections=1,,2", "--vary 'connections=1,,2' needs distinct, non-empty values"),
            ("connections=1,2,", "--vary 'connections=1,2,' needs distinct, non-empty values"),
        ] {
            switch vary(argument) {
            case .success(let v): XCTFail("\(argument) accepted as \(v)")
            case .failure(let refused): XCTAssertTrue(refused.description.contains(expected), "\(argument): \(refused)")
            }
        }
        if case .failure(let refused) = vary("colour=red") {
            for key in ["delivery", "connections", "streams", "workers", "priority", "coalesce"] {
                XCTAssertTrue(refused.description.contains(key), "the error lists the keys that can be varied: \(refused)")
            }
        }
    }

    func testEveryCombinationRunsWithItsValuesInItsConfiguration() throws {
        let fixture = try HarnessFixture(self)
        var request = TuningMatrix.Request(profilePath: try fixture.profile())
        request.vary = [try vary("connections=1,2").get(), try vary("streams=5,7").get(), try vary("coalesce=0,250ms").get()]
        request.overrides.workers = 1
        request.outDirectory = fixture.path("matrix")
        request.cooldownSeconds = 0
        var log: [String] = []
        let outcome = try TuningMatrix.execute(request) { log.append($0) }

        XCTAssertEqual(outcome.cells.count, 8, "2 × 2 × 2")
        let expected: [(connections: Int, streams: Int, coalesce: Int64?)] = [
            (1, 5, nil), (1, 5, 250), (1, 7, nil), (1, 7, 250), (2, 5, nil), (2, 5, 250), (2, 7, nil), (2, 7, 250),
        ]
        for (i, (cell, want)) in zip(outcome.cells, expected).enumerated() {
            let name = "connections=\(want.connections),streams=\(want.streams),coalesce=\(want.coalesce.map { "\($0)ms" } ?? "0")"
            XCTAssertEqual(cell.directory, fixture.path("matrix/" + String(format: "%02d-", i + 1) + name))
            XCTAssertEqual(cell.settings,
                ["connections": "\(want.connections)", "streams": "\(want.streams)", "coalesce": want.coalesce.map { "\($0)ms" } ?? "0"])
            let report = try RunReport.load(from: cell.directory + "/report.json")
            let c = report.configuration
            XCTAssertEqual(c.transport.connections, want.connections, name)
            XCTAssertEqual(c.transport.streams, want.streams, name)
            XCTAssertEqual(c.transport.workers, 1, "the request's own overrides hold in every cell")
            XCTAssertEqual(c.coalescing.window?.millis ?? 0, want.coalesce ?? 0, name)
            XCTAssertEqual(report.pushes.delivered, 7, name)
            XCTAssertEqual(cell.delivered, 7)
            XCTAssertTrue(log[i].hasPrefix("matrix \(i + 1): \(name): "), log[i])
        }
        for file in ["matrix.json", "matrix.md", MatrixHtml.fileName] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: fixture.path("matrix/" + file)), file)
        }
        let md = try String(contentsOfFile: fixture.path("matrix/matrix.md"), encoding: .utf8)
        XCTAssertEqual(md, TuningMatrix.markdown(outcome.cells, fit: outcome.fit))
    }

    func testAValueThatIsNotOneIsRefusedNamingIt() throws {
        let fixture = try HarnessFixture(self)
        for argument in ["connections=1,two", "priority=7", "delivery=carrier-pigeon", "coalesce=soon"] {
            let message: String
            switch vary(argument) {
            case .failure(let refused): message = refused.description
            case .success(let v):
                var request = TuningMatrix.Request(profilePath: try fixture.profile())
                request.vary = [v]
                request.outDirectory = fixture.path("matrix-\(UUID().uuidString)")
                request.cooldownSeconds = 0
                do {
                    _ = try TuningMatrix.execute(request) { _ in }
                    XCTFail("\(argument) was run")
                    continue
                } catch { message = "\(error)" }
                XCTAssertFalse(FileManager.default.fileExists(atPath: request.outDirectory),
                               "\(argument): refused before the first run, so nothing was written")
            }
            let bad = String(argument.split(separator: "=")[1].split(separator: ",").last!)
            XCTAssertTrue(message.contains(bad), "\(argument): \(message)")
            XCTAssertTrue(message.contains(String(argument.split(separator: "=")[0])), "\(argument): \(message)")
        }
    }
}
