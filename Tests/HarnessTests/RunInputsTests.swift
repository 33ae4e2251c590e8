import APNsCore
import Foundation
import TestSupport
import XCTest
@testable import Harness

/// What a run reads before anything starts: each input read, and each bad one refused naming its source.
final class RunInputsTests: XCTestCase {
    func testReadsTheRecipeStreamDigestDeadTokensAndMakesAKeyForTheSimulator() throws {
        let fixture = try HarnessFixture(self)
        var config = try fixture.config()
        let dead = HarnessFixture.tokens[2].uppercased()
        config.workload.deadTokens = try fixture.write("dead.txt", "# planted\n\n  \(dead)  \n\(HarnessFixture.tokens[3])\n")
        let inputs = try RunInputs(config, credentials: Credentials())

        XCTAssertEqual(inputs.recipes.map(\.name), ["leave-requests"])
        XCTAssertEqual(inputs.contractChecks.count, 1)
        XCTAssertNil(inputs.contractChecks[0], "no ActivityKit model named")
        XCTAssertEqual(inputs.deadTokens, [dead, HarnessFixture.tokens[3]], "comments and blank lines skipped, spaces trimmed")
        let sha256sum = try runChild("/usr/bin/sha256sum", [config.workload.stream])
        XCTAssertEqual(sha256sum.status, 0, sha256sum.output)
        XCTAssertEqual(inputs.streamSHA256, String(sha256sum.output.prefix(64)), "the stream file's SHA-256")
        XCTAssertNil(inputs.trustedCertificatePEM)
        XCTAssertFalse(inputs.libcurl.version.isEmpty)
        // No key given: a fresh one for the embedded simulator, a new one each run.
        let other = try RunInputs(config, credentials: Credentials())
        XCTAssertNotEqual(inputs.key.privateKey.pkcs8PEM, other.key.privateKey.pkcs8PEM)
    }

    func testAGivenKeyIsUsedAndAURLTargetTrustsTheGivenCA() throws {
        let fixture = try HarnessFixture(self)
        var config = try fixture.config()
        config.target = .url("https://127.0.0.1:9")
        let (key, keyPath) = try fixture.key()
        let pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"
        let ca = try fixture.write("ca.pem", pem)
        let inputs = try RunInputs(config, credentials: Credentials(keyPath: keyPath, keyID: key.keyID, teamID: key.teamID), caCertificatePath: ca)
        XCTAssertEqual(inputs.key.keyID, key.keyID)
        XCTAssertEqual(inputs.key.teamID, key.teamID)
        XCTAssertEqual(inputs.key.privateKey.pkcs8PEM, key.privateKey.pkcs8PEM)
        XCTAssertEqual(inputs.trustedCertificatePEM, pem)
    }

    /// `change` breaks one input; the error names it.
    func assertRefused(_ expected: String, credentials: Credentials = Credentials(), ca: String? = nil,
                       file: StaticString = #filePath, line: UInt = #line, _ change: (HarnessFixture, inout RunConfig) throws -> Void) throws {
        let fixture = try HarnessFixture(self)
        var config = try fixture.config()
        try change(fixture, &config)
        XCTAssertThrowsError(try RunInputs(config, credentials: credentials, caCertificatePath: ca), file: file, line: line) { error in
            XCTAssertTrue("\(error)".contains(expected), "expected '\(expected)' in: \(error)", file: file, line: line)
        }
    }

    func testEachBadInputIsRefusedNamingItsSource() throws {
        try assertRefused("/nonexistent/r.yaml: cannot read the recipe: ") { _, c in c.workload.recipe = "/nonexistent/r.yaml" }
        try assertRefused("stream /nonexistent/s.ndjson (from ") { _, c in c.workload.stream = "/nonexistent/s.ndjson" }
        try assertRefused("dead-token list /nonexistent/dead cannot be read") { _, c in c.workload.deadTokens = "/nonexistent/dead" }
        try assertRefused("dead.txt:3: 'nothex…(6)' is not a device token") { f, c in
            c.workload.deadTokens = try f.write("dead.txt", "# one\n\(HarnessFixture.tokens[0])\nnothex\n")
        }
        // The recipe names the template's file and line: the line of `template:` in the copy.
        let templateLine = try String(contentsOfFile: HarnessFixture.recipe, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("template: ") }.map { $0 + 1 } ?? 0
        try assertRefused("r.yaml:\(templateLine): 'events.leave.status.push.template' ") { f, c in
            try f.write("t.json", "{ not json")
            c.workload.recipe = try f.recipe(template: "t.json")
        }
        try assertRefused("t.json: not valid JSON") { f, c in
            try f.write("t.json", "{ not json")
            c.workload.recipe = try f.recipe(template: "t.json")
        }
    }

    func testKeysAndCertificatesAreRefusedNamingTheOptions() throws {
        try assertRefused("--key-path needs --key-id and --team-id", credentials: Credentials(keyPath: "/k.p8")) { _, _ in }
        try assertRefused("target https://127.0.0.1:9 needs a provider key: --key-path") { _, c in c.target = .url("https://127.0.0.1:9") }
        try assertRefused("--ca-cert /ca.pem goes with a URL, sandbox or production target", ca: "/ca.pem") { _, _ in }
        let fixture = try HarnessFixture(self)
        let (key, keyPath) = try fixture.key()
        let credentials = Credentials(keyPath: keyPath, keyID: key.keyID, teamID: key.teamID)
        try assertRefused("CA certificate /nonexistent/ca.pem (--ca-cert or APNS_CA_CERT) cannot be read", credentials: credentials,
                          ca: "/nonexistent/ca.pem") { _, c in c.target = .sandbox }
        let notPEM = try fixture.write("ca.txt", "hello")
        try assertRefused("CA certificate \(notPEM) (--ca-cert or APNS_CA_CERT) is not a PEM certificate", credentials: credentials,
                          ca: notPEM) { _, c in c.target = .sandbox }
    }
}
