import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A recipe written in its profile, as a mapping under `recipe:`: the profile loads, the workload is the
/// recipe's (named as the profile unless it says otherwise), and the run reads the same recipe from the
/// profile's file.
final class ProfileInlineRecipeTests: RecipeScratchCase {
    private var profile: String { dir.appendingPathComponent("notify.yaml").path }
    override var templates: [String: String] { ["notify.json": #"{"aps":{"alert":"{{body}}"}}"#] }

    private func write(_ recipe: String) throws {
        try """
            name: notify
            stream: notify.ndjson
            push_type: alert
            bundle_id: com.example.notify
            recipe:
            \(recipe)
            """.write(toFile: profile, atomically: true, encoding: .utf8)
    }

    func testARecipeInTheProfileIsTheWorkload() throws {
        try write("""
              events:
                notify:
                  match: {kind: notify}
                  fields: {token: {type: token, nullable: true}, body: string}
                  push: {to: {token: token}, template: notify.json}
            """)
        let config = try ProfileLoader.load(path: profile)
        XCTAssertEqual(config.workload.name, "notify")
        XCTAssertEqual(config.workload.recipe, RecipeLoader.inlinePath(profile, key: "recipe"))
        let recipes = try Workloads.recipes(config.workload)
        XCTAssertEqual(recipes.map(\.name), ["notify"])
        XCTAssertEqual(recipes[0].events.map(\.name), ["notify"])
        XCTAssertEqual(recipes[0].pushRules.first?.templateSource, dir.appendingPathComponent("notify.json").path)
    }

    func testAMistakeInTheProfilesRecipeNamesTheProfileLineAndKey() throws {
        try write("""
              recipe: notify
              events:
                notify:
                  match: {kind: notify}
                  fields: {token: token, body: string}
                  push: {to: {token: tokn}, template: notify.json}
            """)
        XCTAssertThrowsError(try ProfileLoader.load(path: profile)) { error in
            guard let e = error as? ProfileError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.file, self.profile)
            XCTAssertEqual(e.line, 11)
            XCTAssertEqual(e.message, "'recipe.events.notify.push.to.token' names 'tokn', which is not a field of event 'notify' (fields: token, body)")
        }
    }
}
