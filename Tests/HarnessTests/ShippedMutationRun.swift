import Foundation
import TestSupport
import XCTest

/// The counts a mutation test over the shipped files puts each variant in, exactly one of: refused naming
/// where it is, documented behaviour, same meaning, silent (another meaning, unnoticed) or refused without
/// naming where it is.
protocol ShippedMutationTally {
    var variants: Int { get }
    var errors: Int { get }
    var documented: Int { get }
    var unchanged: Int { get }
    var silent: [String] { get }
    var unnamed: [String] { get }
}

extension ShippedMutationTally {
    /// Asserts that every variant was counted once and that none was silent or unnamed; `silentHeading` and
    /// `unnamedHeading` head the list of those that were.
    func assertEveryVariantJudged(silentHeading: String, unnamedHeading: String,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(variants, errors + documented + unchanged + silent.count + unnamed.count, "every variant counted once",
                       file: file, line: line)
        XCTAssertTrue(silent.isEmpty, silentHeading + ":\n" + silent.joined(separator: "\n"), file: file, line: line)
        XCTAssertTrue(unnamed.isEmpty, unnamedHeading + ":\n" + unnamed.joined(separator: "\n"), file: file, line: line)
    }
}

/// A copy of the repository's profiles/ to change: `<scratch>/profiles`, in a scratch folder named `name` that
/// goes when `test` ends.
enum ShippedProfilesCopy {
    static func make(_ name: String, for test: XCTestCase) throws -> (scratch: URL, root: URL) {
        let scratch = try ScratchFolder.make(name, removedBy: test.addTeardownBlock)
        let root = scratch.appendingPathComponent("profiles")
        try FileManager.default.copyItem(at: RepoFiles.root.appendingPathComponent("profiles"), to: root)
        return (scratch, root)
    }
}
