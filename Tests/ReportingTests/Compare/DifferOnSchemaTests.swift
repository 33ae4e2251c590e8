import APNsCore
import Reporting
import XCTest

/// `--differ-on` paths are checked against the fields report.json's configuration has, as the names are: a
/// misspelt path would let nothing differ and say nothing.
final class DifferOnSchemaTests: XCTestCase {
    let configurations = [CompareFixtures.run().report.configuration]

    func refusal(_ text: String) -> String? {
        do { try DifferOn.check(try DifferOn.fields(text), against: configurations) } catch { return "\(error)" }
        return nil
    }

    func testAPathThatIsNoFieldIsRefusedWithTheClosestAndTheSectionsFields() throws {
        let payload = "(configuration.payload has collapseID, expirationSeconds, priority, priorityOverride)"
        XCTAssertEqual(refusal("configuration.payload.nope"),
                       "--differ-on: 'configuration.payload.nope' is not a field of report.json's configuration \(payload)")
        XCTAssertEqual(refusal("priority,configuration.payload.priorty"),
                       "--differ-on: 'configuration.payload.priorty' is not a field of report.json's configuration; did you mean "
                           + "'configuration.payload.priority'? \(payload)")
        XCTAssertEqual(refusal("configuration.transport.conections."),
                       "--differ-on: 'configuration.transport.conections.' is not a field of report.json's configuration; did you mean "
                           + "'configuration.transport.connections'? (configuration.transport has connections, failFastSeconds, pushTimeoutMillis, "
                           + "stallTimeoutSeconds, streams, workers)")
    }

    func testEveryNameAndEveryFieldOfTheSchemaIsAccepted() throws {
        for name in DifferOn.names.map(\.name) { XCTAssertNil(refusal(name), name) }
        // Set in no report here, but a field of the schema (a run setting's).
        XCTAssertNil(refusal("configuration.payload.collapseID"))
        XCTAssertNil(refusal("configuration.payload."))
        // Every field the reports hold, and anything under an APNs model's own settings.
        for field in DifferOn.knownFields(configurations) { XCTAssertNil(refusal(field), field) }
        XCTAssertNil(refusal("configuration.simulator.settings.faults.round_trip_ms"))
    }
}
