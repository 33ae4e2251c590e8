import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// The shipped recipes (profiles/recipes/), as the per-app tests run them.
enum ShippedRecipes {
    static func load(_ name: String) throws -> Recipe { try RecipeLoader.load(path: RepoFiles.recipe(name)) }

    /// The shipped recipe `name` run by ``RecipeRules``.
    static func rules(_ name: String, priority: Priority = .immediate, channels: BroadcastChannels? = nil) throws -> RecipeRules {
        RecipeRules(try load(name), priority: priority, channels: channels)
    }

    /// The shipped recipe `name` with every push's template replaced by `templateJSON` (written to a temporary
    /// folder beside the recipe's copy), and its `slots:` cut to the slots that template has: what a user
    /// does to send the app's events through a template of their own.
    static func withTemplate(_ name: String, _ templateJSON: String, for test: XCTestCase) throws -> Recipe {
        let dir = try ScratchFolder.make("recipe", removedBy: test.addTeardownBlock)
        let templatePath = dir.appendingPathComponent("t.json").path
        try templateJSON.write(toFile: templatePath, atomically: true, encoding: .utf8)
        let slotNames = Set(try PayloadTemplate(json: templateJSON, source: templatePath).slotNames)
        let text = try String(contentsOfFile: RepoFiles.recipe(name), encoding: .utf8)
        var out: [String] = []
        var slotsIndent: Int?
        // The `slots:` line waits for its first kept slot: with none kept it goes too.
        var slotsLine: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            if let s = slotsIndent {
                if indent > s, !body.isEmpty {
                    let key = String(body.prefix { $0 != ":" })
                    if !slotNames.contains(key) { continue }
                    if let pending = slotsLine { out.append(pending) }
                    slotsLine = nil
                    out.append(String(line))
                    continue
                }
                slotsIndent = nil
                slotsLine = nil
            }
            if body.hasPrefix("slots:") {
                slotsIndent = indent
                slotsLine = String(line)
                continue
            }
            if body.hasPrefix("template:") {
                out.append(String(repeating: " ", count: indent) + "template: " + templatePath)
                continue
            }
            out.append(String(line))
        }
        let recipePath = dir.appendingPathComponent("\(name).yaml").path
        let yaml = out.joined(separator: "\n")
        try yaml.write(toFile: recipePath, atomically: true, encoding: .utf8)
        return try RecipeLoader.load(yaml: yaml, file: recipePath)
    }
}
