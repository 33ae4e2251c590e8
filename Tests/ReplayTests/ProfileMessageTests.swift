import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// How a profile's mistakes are said: a YAML syntax error at its line with the lines around it (never the
/// whole file), a key given twice at the second one, a tab called a tab, a misspelled key with the closest
/// known one, and a file the profile names with the key and line that name it. Messages asserted whole.
final class ProfileMessageTests: XCTestCase {
    let head = "name: t\nworkload: order-changes\nrecipe: \(RepoFiles.recipe("order-changes"))\nstream: s.ndjson\nbundle_id: com.example.app\n"

    func refusal(_ yaml: String) -> ProfileError? {
        do {
            _ = try ProfileLoader.read(yaml: yaml, file: "p.yaml")
            XCTFail("loaded:\n\(yaml)")
        } catch let e as ProfileError {
            return e
        } catch {
            XCTFail("not a ProfileError: \(error)")
        }
        return nil
    }

    func testAKeyGivenTwiceIsNamedAtItsSecondLineWithThreeLinesAround() throws {
        let e = try XCTUnwrap(refusal(head + "connections: 2\nstreams: 10\nconnections: 4\npriority: 10\nworkers: 1\n"))
        XCTAssertEqual(e.line, 8)
        XCTAssertEqual(e.description, """
            p.yaml:8: is not valid YAML: key 'connections' is given twice in one mapping (first on line 6): give it once
            7 | streams: 10
            8 > connections: 4
            9 | priority: 10
            """)
    }

    func testAKeyGivenTwiceInANestedMappingIsNamedAtItsSecondLine() throws {
        let e = try XCTUnwrap(refusal(head + "simulator:\n  fast: true\n  seed: 1\n  fast: false\n"))
        XCTAssertEqual(e.description, """
            p.yaml:9: is not valid YAML: key 'fast' is given twice in one mapping (first on line 7): give it once
             8 |   seed: 1
             9 >   fast: false
            10 | 
            """)
    }

    func testATabInTheIndentationIsCalledATab() throws {
        let e = try XCTUnwrap(refusal(head + "simulator:\n\tfast: true\n"))
        XCTAssertEqual(e.description, """
            p.yaml:7: is not valid YAML: a tab character indents this line; YAML indents with spaces only
            6 | simulator:
            7 > \tfast: true
            8 | 
            """)
    }

    func testAMisspelledKeyGetsTheClosestKnownOne() throws {
        let e = try XCTUnwrap(refusal(head + "conections: 4\n"))
        XCTAssertEqual(e.line, 6)
        XCTAssertTrue(e.description.hasPrefix("p.yaml:6: unknown key 'conections' (known keys: "), e.description)
        XCTAssertTrue(e.description.hasSuffix("); did you mean 'connections'?"), e.description)
        let far = try XCTUnwrap(refusal(head + "colour: red\n"))
        XCTAssertFalse(far.description.contains("did you mean"), "no known key is near: \(far)")
    }

    func testAFileTheProfileNamesIsNamedWithItsKeyAndLine() throws {
        let dir = try ScratchFolder.make("profile-files", removedBy: addTeardownBlock)
        try Data("{}\n".utf8).write(to: dir.appendingPathComponent("s.ndjson"))
        let profile = try ProfileLoader.read(yaml: head + "dead_tokens: missing.dead\n", file: dir.appendingPathComponent("p.yaml").path)
        XCTAssertThrowsError(try profile.requireFiles()) { error in
            XCTAssertEqual("\(error)", "\(dir.path)/p.yaml:6: 'dead_tokens' names \(dir.path)/missing.dead, which cannot be read (no such file)")
        }
        let noStream = try ProfileLoader.read(yaml: head, file: "/nonexistent/p.yaml")
        XCTAssertThrowsError(try noStream.requireFiles()) { error in
            XCTAssertEqual("\(error)", "/nonexistent/p.yaml:4: 'stream' names /nonexistent/s.ndjson, which cannot be read (no such file)")
        }
    }
}
