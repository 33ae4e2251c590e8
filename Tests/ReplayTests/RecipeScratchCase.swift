import Foundation
@testable import Replay
import TestSupport
import XCTest

/// What a recipe test works in: a scratch folder made for each test and removed after it, named for the test
/// class, with the class's ``templates`` written in it; the recipe's path there (``file``); device tokens by
/// number; and a recipe's text loaded from that path and replayed, or applied line by line.
class RecipeScratchCase: XCTestCase {
    private(set) var dir: URL!

    /// Where a recipe loaded from text says it was read from; its templates are read beside it.
    var file: String { dir.appendingPathComponent("r.yaml").path }

    /// The templates written in the folder before each test, by file name: one alert titled by `title`
    /// unless a class says otherwise.
    var templates: [String: String] { ["t.json": #"{"aps":{"alert":{"title":"{{title}}"}}}"#] }

    override func setUpWithError() throws {
        try super.setUpWithError()
        dir = try ScratchFolder.make(String(describing: type(of: self)), removedBy: addTeardownBlock)
        for (name, text) in templates {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }

    /// A device token (64 hex digits) made of the byte `n` repeated: `token(0xa1)` is `a1a1…`.
    func token(_ n: Int) -> String { String(repeating: String(format: "%02x", n), count: 32) }

    /// `lines` each given the same time: a line written `{"kind":…}` becomes `{"at":"2025-01-01T00:00:00Z","kind":…}`.
    func timed(_ lines: [String]) -> [String] {
        lines.map { #"{"at":"2025-01-01T00:00:00Z","# + $0.dropFirst() }
    }

    /// The recipe `yaml`, loaded as read from ``file``, replayed over `lines` through the workload driver.
    func replay(_ yaml: String, lines: [String]) throws -> WorkloadLedger {
        try WorkloadLedger.replay(RecipeLoader.load(yaml: yaml, file: file), lines: lines, for: self)
    }

    /// The rules of the recipe `yaml`, loaded as read from ``file``, at priority 10.
    func rules(_ yaml: String) throws -> RecipeRules {
        RecipeRules(try RecipeLoader.load(yaml: yaml, file: file), priority: .immediate)
    }

    /// Applies the stream line `json` (numbered `line`, read at `at` ms) to `rules`: the pushes it planned.
    func apply(_ rules: RecipeRules, _ json: String, line: Int, at: Int64) throws -> Int {
        let fields = try FlatJSON.parse(json, line: line)
        return try rules.apply(StreamRecord(line: line, at: at, kind: try fields.optionalString("kind") ?? "", fields: fields))
    }
}
