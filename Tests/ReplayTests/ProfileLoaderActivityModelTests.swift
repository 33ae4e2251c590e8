import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// `activity_model`, `activity_model_type` and `date_decoding`: the app's ActivityKit model read with the
/// profile, each error naming the file, the line and the key (the model file's own line for a declaration
/// the checker cannot read).
final class ProfileLoaderActivityModelTests: XCTestCase {
    static let repo = RepoFiles.root
    var dir: URL!

    override func setUpWithError() throws {
        dir = try ScratchFolder.make("model", removedBy: addTeardownBlock)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("models"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.repo.appendingPathComponent("profiles/models/LeaveRequestAttributes.swift"),
                                         to: dir.appendingPathComponent("models/LeaveRequestAttributes.swift"))
    }

    /// A single-workload profile in `dir` with `extra` lines after the workload's keys.
    func profile(_ extra: String, pushType: String = "liveactivity") -> String {
        "name: m\nworkload: leave-requests\nstream: s.ndjson\nrecipe: \(RepoFiles.recipe("leave-requests"))\npush_type: \(pushType)\n"
            + "bundle_id: com.example.a\n" + extra
    }

    func load(_ yaml: String) throws -> RunConfig {
        let path = dir.appendingPathComponent("p.yaml").path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return try ProfileLoader.load(path: path)
    }

    func assertError(_ yaml: String, file: String = "p.yaml", line: Int?, mentions words: [String], _ f: StaticString = #filePath, _ l: UInt = #line) {
        XCTAssertThrowsError(try load(yaml), file: f, line: l) { error in
            guard let e = error as? ProfileError else { return XCTFail("not a ProfileError: \(error)", file: f, line: l) }
            XCTAssertTrue(e.file.hasSuffix(file), "\(e) should name \(file)", file: f, line: l)
            XCTAssertEqual(e.line, line, "\(e)", file: f, line: l)
            for w in words { XCTAssertTrue("\(e)".contains(w), "'\(e)' should mention \(w)", file: f, line: l) }
        }
    }

    func testTheShippedProfilesNameTheirAppsModels() throws {
        for (name, model) in [("leave-requests", "LeaveRequestAttributes"), ("order-changes", "OrderChangesAttributes")] {
            let c = try ProfileLoader.load(path: Self.repo.appendingPathComponent("profiles/\(name).yaml").path)
            let file = try XCTUnwrap(c.workload.activityModel, name)
            XCTAssertTrue(file.path.hasSuffix("profiles/models/\(model).swift"), file.path)
            XCTAssertEqual(file.sha256, try FileDigest.sha256(path: file.path))
            XCTAssertEqual(file.dateDecoding, .deferredToDate, "ActivityKit's decoder, when the profile says nothing")
            XCTAssertNil(file.attributesType)
        }
    }

    func testTheModelIsRecordedWithItsDigestTypeAndDateStrategy() throws {
        let c = try load(profile("activity_model: models/LeaveRequestAttributes.swift\nactivity_model_type: LeaveRequestAttributes\ndate_decoding: iso8601\n"))
        let path = dir.appendingPathComponent("models/LeaveRequestAttributes.swift").path
        XCTAssertEqual(c.workload.activityModel,
                       RunConfig.ActivityKitModelFile(path: path, sha256: try FileDigest.sha256(path: path), attributesType: "LeaveRequestAttributes",
                                                   dateDecoding: .iso8601))
        // The configuration a report embeds carries all four.
        let json = String(decoding: try JSONEncoder().encode(c), as: UTF8.self)
        for key in ["\"activityModel\"", "\"sha256\"", "\"attributesType\"", "\"dateDecoding\":\"iso8601\""] {
            XCTAssertTrue(json.contains(key), "\(key) in \(json)")
        }
        XCTAssertNil(try load(profile("")).workload.activityModel, "no key, no check")
    }

    func testADeclarationOutsideTheSubsetIsRefusedNamingTheModelFileAndItsLine() throws {
        let bad = """
            import ActivityKit

            struct LeaveRequestAttributes: ActivityAttributes {
                public struct ContentState: Codable, Hashable {
                    var status: String
                    var progress: (Double, Double)
                }
                let id: String
            }

            """
        try bad.write(to: dir.appendingPathComponent("models/Bad.swift"), atomically: true, encoding: .utf8)
        assertError(profile("activity_model: models/Bad.swift\n"), file: "models/Bad.swift", line: 6,
                    mentions: ["Bad.swift:6: ", "tuple", "p.yaml:7 names in 'activity_model'"])
    }

    /// `activity_model_flags` lists the flags the app's build sets; a `#if` on a flag it does not know is an
    /// error naming the flag and the key, and with the key given, unlisted flags are unset.
    func testCompilationFlagsDecideTheModelsIfBlocks() throws {
        let model = """
            import ActivityKit

            struct BetaAttributes: ActivityAttributes {
                public struct ContentState: Codable, Hashable {
                    var status: String
                    #if BETA
                    var betaNote: String
                    #endif
                }
            }

            """
        try model.write(to: dir.appendingPathComponent("models/Beta.swift"), atomically: true, encoding: .utf8)
        let file = "activity_model: models/Beta.swift\n"
        assertError(profile(file), file: "models/Beta.swift", line: 6,
                    mentions: ["'BETA'", "'activity_model_flags' (in ", "p.yaml:7 names in 'activity_model'"])
        let set = try XCTUnwrap(load(profile(file + "activity_model_flags: [BETA]\n")).workload.activityModel)
        XCTAssertEqual(set.flags, ["BETA"])
        let check = try ActivityKitModelLoader.check(set, profile: "p.yaml")
        XCTAssertEqual(check.model.contentStateKeys, ["status", "betaNote"])
        let unset = try XCTUnwrap(load(profile(file + "activity_model_flags: []\n")).workload.activityModel)
        XCTAssertEqual(try ActivityKitModelLoader.check(unset, profile: "p.yaml").model.contentStateKeys, ["status"])
        assertError(profile(file + "activity_model_flags: BETA\n"), line: 8, mentions: ["'activity_model_flags' must be a list of compilation flag names"])
        assertError(profile(file + "activity_model_flags: [\"-DBETA\"]\n"), line: 8, mentions: ["'-DBETA', which is not a compilation flag name"])
        assertError(profile("activity_model_flags: [DEBUG]\n"), line: 7, mentions: ["'activity_model_flags' goes with 'activity_model'"])
    }

    func testAMissingModelFileOrStructIsNamed() throws {
        assertError(profile("activity_model: models/Nope.swift\n"), line: 7, mentions: ["'activity_model' names", "models/Nope.swift", "cannot be read"])
        assertError(profile("activity_model: models/LeaveRequestAttributes.swift\nactivity_model_type: OrderAttributes\n"),
                    file: "models/LeaveRequestAttributes.swift", line: 1, mentions: ["no struct named 'OrderAttributes'"])
    }

    func testBadValuesAndKeysOutOfPlaceAreRefusedWithTheirLine() throws {
        let model = "activity_model: models/LeaveRequestAttributes.swift\n"
        assertError(profile(model + "date_decoding: iso\n"), line: 8,
                    mentions: ["'date_decoding' must be one of deferredToDate, secondsSince1970, millisecondsSince1970, iso8601, found 'iso'"])
        assertError(profile("date_decoding: iso8601\n"), line: 7, mentions: ["'date_decoding' goes with 'activity_model'"])
        assertError(profile("activity_model_type: X\n"), line: 7, mentions: ["'activity_model_type' goes with 'activity_model'"])
        assertError(profile("activity_model: [a, b]\n"), line: 7, mentions: ["'activity_model' must be a non-empty string"])
        assertError(profile(model, pushType: "alert"), line: 7, mentions: ["'activity_model' applies to Live Activity pushes", "sends alert pushes"])
        assertError(profile("slo_max_would_not_decode: 0\n"), line: 7, mentions: ["'slo_max_would_not_decode' needs activity_model"])
        assertError(profile(model + "slo_max_would_not_decode: 1.5\n"), line: 8,
                    mentions: ["'slo_max_would_not_decode' must be a share between 0 and 1, found 1.5"])
        XCTAssertEqual(try load(profile(model + "slo_max_would_not_decode: 0\n")).slo.maxWouldNotDecode, 0)
    }

    func testEachPartOfAMixNamesItsOwnModel() throws {
        let mix = """
            name: m
            workload: mix
            mix:
              - {workload: leave-requests, stream: a.ndjson, recipe: \(RepoFiles.recipe("leave-requests")), bundle_id: com.example.a, activity_model: \
            models/LeaveRequestAttributes.swift}
              - {workload: cdbl-leave, stream: b.ndjson, recipe: \(RepoFiles.recipe("cdbl-leave")), push_type: alert, bundle_id: com.example.b}

            """
        let c = try load(mix)
        XCTAssertEqual(c.workload.parts.map { $0.activityModel?.path.hasSuffix("LeaveRequestAttributes.swift") }, [true, nil])
        assertError(mix + "activity_model: models/LeaveRequestAttributes.swift\n", line: 6,
                    mentions: ["'activity_model' belongs to each part of 'mix:'"])
        assertError(mix.replacingOccurrences(of: "bundle_id: com.example.a,", with: "bundle_id: com.example.a, date_decoding: iso,"), line: 4,
                    mentions: ["'mix[0].date_decoding' must be one of"])
        assertError(mix.replacingOccurrences(of: "bundle_id: com.example.b}",
                                             with: "bundle_id: com.example.b, activity_model: models/LeaveRequestAttributes.swift}"),
                    line: 4, mentions: ["'activity_model' applies to Live Activity pushes", "its part cdbl-leave"])
    }
}
