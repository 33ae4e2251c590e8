import APNsCore
import Foundation
import XCTest

/// Temporary files for the stream tests, removed at the end of each test.
enum StreamTestFiles {
    /// Writes `bytes` to a new file under the temporary directory and returns its path; the file
    /// is removed when `test` finishes.
    static func write(_ bytes: [UInt8], for test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) -> String {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("apnsbench-replay-\(UUID().uuidString).ndjson")
        XCTAssertNoThrow(try Data(bytes).write(to: url), file: file, line: line)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    static func write(_ text: String, for test: XCTestCase, file: StaticString = #filePath, line: UInt = #line) -> String {
        write(Array(text.utf8), for: test, file: file, line: line)
    }

    /// A path that does not exist.
    static func missingPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("apnsbench-missing-\(UUID().uuidString)").path
    }

    /// Peak resident set size of this process, bytes (Linux reports kilobytes).
    static func peakRSSBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #endif
    }
}

/// A small deterministic generator so that randomized tests are reproducible.
typealias StreamTestRandom = SplitMix64
