import APNsCore
@testable import APNsSimulator
import Foundation
import NIOCore
import NIOHPACK
import TestSupport
import XCTest

/// The validation table (`ValidationRules`) against the validator, both ways: every row's request gets the
/// row's reason, two rows' requests combined get the earlier row's (the order), every reason the validator's
/// source names is a row, and docs/simulator.md's table is the table.
final class ValidationRulesTests: XCTestCase {
    let now = 1_700_000_000
    let keyA = SigningKey.generate(keyID: "KEYA000001", teamID: "TEAMA00001")
    let keyB = SigningKey.generate(keyID: "KEYB000001", teamID: "TEAMA00001")
    let keyC = SigningKey.generate(keyID: "KEYC000001", teamID: "TEAMC00001")
    lazy var tokenA = bearer(keyA)

    func bearer(_ key: SigningKey, ago: Int = 0) -> String { "bearer " + ProviderTokenCache.makeJWT(key: key, issuedAt: now - ago) }

    /// The base setup (keys A, B, C; `--bundle-id com.example.app`; the devices file), `config` replacing its YAML.
    func validator(config: String?, bundleIDs: [String] = ["com.example.app"]) throws -> RequestValidator {
        let dir = try ScratchFolder.make("validation-rules", removedBy: addTeardownBlock)
        try (ValidationRules.devicesFile.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("devices.txt"), atomically: true, encoding: .utf8)
        var c = SimulatorConfiguration()
        for k in [keyA, keyB, keyC] {
            c.register(RegisteredKey(keyID: k.keyID, teamID: k.teamID, publicKey: k.publicKey))
            c.topicsByTeam[k.teamID] = Set(bundleIDs)
        }
        let now = Double(self.now)
        c.clock = WallClock { now }
        try SimulatorConfigFile.apply(yaml: config ?? "devices: { file: devices.txt }", file: dir.appendingPathComponent("sim.yaml").path, to: &c)
        return RequestValidator(configuration: c)
    }

    func authorization(_ form: TokenForm) -> String? {
        switch form {
        case .absent: return nil
        case .notBearer: return "Basic dXNlcg=="
        case .notAJWT: return "bearer abc"
        case .unknownKey: return bearer(SigningKey.generate(keyID: "UNKNOWN001", teamID: keyA.teamID))
        case .otherTeamsKeyID: return bearer(SigningKey(privateKey: keyA.privateKey, keyID: keyA.keyID, teamID: keyC.teamID))
        case .badSignature: return bearer(SigningKey(privateKey: ES256PrivateKey(), keyID: keyA.keyID, teamID: keyA.teamID))
        case .issuedOverAnHourAgo: return bearer(keyA, ago: 3601)
        case .otherTeamAfterFirst: return bearer(keyC)
        case .otherKeyAfterFirst: return bearer(keyB)
        case .newSigningAfterFirst: return bearer(keyA)
        }
    }

    /// The good request with `changes` made.
    func request(_ changes: [RequestChange]) -> ReceivedRequest {
        var headers = ValidationRules.goodRequest.headers.map { ($0.0, $0.1 as String?) }
        headers = headers.map { $0.0 == "authorization" ? ($0.0, tokenA) : $0 }
        var body = ValidationRules.goodRequest.body
        func set(_ name: String, _ value: String?) {
            if let i = headers.firstIndex(where: { $0.0 == name }) { headers[i].1 = value } else { headers.append((name, value)) }
        }
        for change in changes {
            switch change {
            case let .header(name, value): set(name, value?.value)
            case let .headerTwice(name): headers.append((name, headers.first { $0.0 == name }?.1 ?? ""))
            case let .body(b): body = b.value
            case let .token(form): set("authorization", authorization(form))
            case let .deviceToken(token): set(":path", "/3/device/" + token)
            }
        }
        var h = HPACKHeaders()
        for case let (name, value?) in headers { h.add(name: name, value: value) }
        var buffer = ByteBufferAllocator().buffer(capacity: body.utf8.count)
        buffer.writeString(body)
        return ReceivedRequest(headers: h, body: buffer)
    }

    /// The verdict on `changes` after `first` (when given) on one connection; the first must be accepted.
    func verdict(_ changes: [RequestChange], first: [RequestChange]?, config: String?) throws -> Verdict {
        let validator = try validator(config: config)
        var auth = ConnectionAuthState()
        if let first {
            XCTAssertEqual(validator.validate(request(first), auth: &auth), .accept, "the first request of \(changes)")
        }
        return validator.validate(request(changes), auth: &auth)
    }

    func testTheGoodRequestIsAccepted() throws {
        XCTAssertEqual(try verdict([], first: nil, config: nil), .accept)
        XCTAssertEqual(try verdict([], first: [], config: nil), .accept, "twice on one connection")
    }

    func testEveryRowsRequestGetsItsReason() throws {
        for rule in ValidationRules.all {
            XCTAssertEqual(try verdict(rule.changes, first: rule.first, config: rule.config), .reject(rule.reason), rule.markdownRow)
        }
    }

    /// Two rows' requests in one (changing different things, under the base setup) get the earlier row's reason.
    func testTheRowsAreInTheValidatorsOrder() throws {
        let rows = ValidationRules.all.filter { $0.first == nil && $0.config == nil }
        var combined = 0
        for (i, earlier) in rows.enumerated() {
            for later in rows[(i + 1)...] where earlier.reason != later.reason
                && Set(earlier.changes.map(\.slot)).isDisjoint(with: later.changes.map(\.slot)) {
                XCTAssertEqual(try verdict(earlier.changes + later.changes, first: nil, config: nil), .reject(earlier.reason),
                               "\(earlier.markdownRow)\nwith\n\(later.markdownRow)")
                combined += 1
            }
        }
        XCTAssertGreaterThan(combined, 300, "pairs combined")
        let steps = ValidationRules.all.map(\.step.rawValue)
        XCTAssertEqual(steps, steps.sorted(), "the rows are in step order")
    }

    /// `--bundle-id` names a bundle id: a Live Activity's topic is it plus `.push-type.liveactivity`; given with the
    /// suffix, it allows no Live Activity of that app.
    func testABundleIDIsNamedWithoutItsPushTypeSuffix() throws {
        let liveActivity: [RequestChange] = [.header("apns-push-type", .text("liveactivity")),
                                             .header("apns-topic", .text("com.example.app.push-type.liveactivity")),
                                             .body(.text(#"{"aps":{"event":"update","timestamp":1,"content-state":{}}}"#))]
        var auth = ConnectionAuthState()
        XCTAssertEqual(try validator(config: nil).validate(request(liveActivity), auth: &auth), .accept)
        auth = ConnectionAuthState()
        let suffixed = try validator(config: nil, bundleIDs: ["com.example.app.push-type.liveactivity"])
        XCTAssertEqual(suffixed.validate(request(liveActivity), auth: &auth), .reject(.topicDisallowed))
    }

    /// Every reason `RequestValidator.swift` and `DeviceRegistry.swift` name is a row's (or listed as unreachable
    /// from `simulate`), and every row's reason is one they name.
    func testEveryReasonTheValidatorNamesIsARow() throws {
        var named = Set<String>()
        for file in ["Sources/APNsSimulator/Validation/RequestValidator.swift", "Sources/APNsSimulator/Registry/DeviceRegistry.swift"] {
            let source = try String(contentsOf: RepoFiles.root.appendingPathComponent(file), encoding: .utf8)
            let pattern = try NSRegularExpression(pattern: #"(?:refused|reject)\(\.(\w+)\)|return \(?\.(\w+)\b(?!\()|\? nil : \.(\w+)"#)
            for m in pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                for g in 1...3 {
                    guard let r = Range(m.range(at: g), in: source) else { continue }
                    let name = source[r].prefix(1).uppercased() + source[r].dropFirst()
                    if Reason.all.contains(where: { $0.rawValue == name }) { named.insert(name) }
                }
            }
        }
        // Reasons from the configuration: the payload's (BadPayload), the dead tokens' and the unknown token's.
        named.insert(SimulatorConfiguration.simulatorBadPayload.rawValue)
        named.formUnion(DeviceRegistry.DeadReason.allCases.map(\.rawValue))
        let rows = Set(ValidationRules.all.map(\.reason.rawValue)).union(ValidationRules.unreachable.map(\.reason.rawValue))
        XCTAssertEqual(named.subtracting(rows).sorted(), [], "named by the validator, in no row")
        XCTAssertEqual(rows.subtracting(named).sorted(), [], "in a row, named nowhere in the validator")
    }

    func testTheDocsValidationTableIsTheTable() throws {
        let docs = try String(contentsOf: RepoFiles.root.appendingPathComponent("docs/simulator.md"), encoding: .utf8)
        let lines = docs.components(separatedBy: "\n")
        let header = ValidationRules.markdownHeader.components(separatedBy: "\n")
        guard let start = lines.indices.first(where: { lines[$0] == header[0] && lines.indices.contains($0 + 1) && lines[$0 + 1] == header[1] })
        else { return XCTFail("docs/simulator.md has no table headed \(header[0]); the table, to paste:\n" + ValidationRules.markdownTable) }
        let table = lines[start...].prefix { $0.hasPrefix("|") }.joined(separator: "\n")
        XCTAssertEqual(table, ValidationRules.markdownTable, "docs/simulator.md's validation table differs; the table, to paste:\n"
                       + ValidationRules.markdownTable)
    }
}
