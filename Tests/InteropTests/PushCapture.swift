import Foundation
import TestSupport
import XCTest

/// scripts/push-capture.py (an h2c server, hyper-h2, that records each request's path, headers and body
/// digest under `requests`) started for one test, with a provider key of its own; stopped by the test's teardown.
struct PushCapture {
    let port: String
    let key: String
    let requests: String

    /// Starts it in `dir`; a machine without Python's h2 is an error naming the install step.
    init(in dir: URL, stoppedBy test: XCTestCase) throws {
        let python = try requireTool("python3", package: "python3")
        let probe = try runChild(python, ["-c", "import h2"])
        guard probe.status == 0 else { throw InteropError("the Python library h2 is not installed: run scripts/install-deps.sh --test") }
        requests = dir.appendingPathComponent("requests").path
        let capture = try ChildProcess(python, [RepoFiles.path("scripts/push-capture.py"), requests])
        test.addTeardownBlock { _ = try? capture.stop() }
        XCTAssertTrue(capture.output.wait(timeout: 30) { !$0.isEmpty }, "push-capture.py printed no port")
        port = try XCTUnwrap(capture.output.all.first)
        key = dir.appendingPathComponent("AuthKey_CAPTURE000.p8").path
        let openssl = try runChild(try requireTool("openssl", package: "openssl"),
            ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
        XCTAssertEqual(openssl.status, 0, openssl.output)
    }

    /// `apnsbench run PROFILE --closed-loop` against it, from the repository's root, its report in `out`.
    func run(_ profile: String, out: String) throws -> (status: Int32, output: String) {
        try apnsbench(["run", profile, "--closed-loop", "--target", "http://127.0.0.1:\(port)", "--key-path", key,
                       "--key-id", "CAPTURE000", "--team-id", "TEAMCAPTUR", "--quiet", "--out", out], directory: RepoFiles.root)
    }
}
