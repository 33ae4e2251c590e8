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

/// A small deterministic generator (SplitMix64) so that randomized tests are reproducible.
struct StreamTestRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
