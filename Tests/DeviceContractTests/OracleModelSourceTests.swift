import DeviceContract
import Foundation
import XCTest

/// The oracle is only as good as the match between the source the parser reads and the types the
/// decoder fills: each declaration must appear in OracleModels.swift or OracleModels+Shapes.swift both as a
/// constant and as code.
final class OracleModelSourceTests: XCTestCase {
    func testEachDeclarationAppearsAsConstantAndAsCode() throws {
        let file = try TestFiles.text("Tests/DeviceContractTests/OracleModels.swift")
            + TestFiles.text("Tests/DeviceContractTests/OracleModels+Shapes.swift")
        for model in OracleModel.all {
            let occurrences = file.components(separatedBy: model.source).count - 1
            XCTAssertEqual(occurrences, 2, "\(model.name): its source text should appear twice (constant and code), found \(occurrences)")
        }
    }

    func testModelFilesHoldTheOracleDeclarations() throws {
        let leave = try TestFiles.text("profiles/models/LeaveRequestAttributes.swift")
        let order = try TestFiles.text("profiles/models/OrderChangesAttributes.swift")
        XCTAssertEqual(leave, "import ActivityKit\nimport Foundation\n\n" + leaveRequestDeclaration + "\n")
        XCTAssertEqual(order, "import ActivityKit\nimport Foundation\n\n" + orderChangesDeclaration + "\n")
    }
}
