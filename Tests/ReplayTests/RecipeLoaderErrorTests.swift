import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// Every kind of recipe mistake is refused when the recipe is loaded, with an error naming the recipe's file,
/// the line and the key; and at run time a line that matches no event is a bad line (`unknown_kind`) with its
/// line number. The messages are asserted whole: they are what a user reads.
final class RecipeLoaderErrorTests: RecipeScratchCase {
    var template: String { dir.appendingPathComponent("t.json").path }
    override var templates: [String: String] { ["t.json": #"{"aps":{"alert":{"title":"{{title}}","body":"{{status}}"}}}"#] }

    /// A small valid recipe: `fields` are the `status` event's fields (from line 14), `push` its push, `match` its match.
    func recipe(fields: String = "      request_id: int\n      status: string\n      title: string\n",
                push: String = "    push:\n      to: {entity: request, key: request_id}\n      template: t.json\n",
                match: String = "{kind: status}") -> String {
        """
        recipe: small
        events:
          created:
            match: {kind: created}
            fields:
              request_id: int
              token: string
            create: request
            key: request_id
            token: token
          status:
            match: \(match)
            fields:
        \(fields)\(push)
        """
    }

    /// Loads `yaml` and returns the error; fails the test when it loads.
    func refusal(_ yaml: String, file f: StaticString = #filePath, line l: UInt = #line) -> ProfileError? {
        do {
            _ = try RecipeLoader.load(yaml: yaml, file: file)
            XCTFail("loaded:\n\(yaml)", file: f, line: l)
            return nil
        } catch let e as ProfileError {
            XCTAssertEqual(e.file, file, file: f, line: l)
            return e
        } catch {
            XCTFail("not a ProfileError: \(error)", file: f, line: l)
            return nil
        }
    }

    /// The error's line and whole message.
    func assertRefused(_ yaml: String, line: Int, _ message: String, file f: StaticString = #filePath, line l: UInt = #line) {
        guard let e = refusal(yaml, file: f, line: l) else { return }
        XCTAssertEqual(e.line, line, "\(e)", file: f, line: l)
        XCTAssertEqual(e.message, message, file: f, line: l)
    }

    func testTheSmallRecipeLoads() throws {
        let r = try RecipeLoader.load(yaml: recipe(), file: file)
        XCTAssertEqual(r.name, "small")
        XCTAssertEqual(r.events.map(\.name), ["created", "status"])
    }

    func testASlotFilledFromAFieldTheEventDoesNotHaveNamesTheFieldAndTheEventsFields() {
        assertRefused(recipe(push: "    push:\n      to: {entity: request, key: request_id}\n      template: t.json\n      slots: {status: stauts}\n"),
                      line: 20, "'events.status.push.slots.status' names 'stauts', which is not a field of event 'status' (fields: request_id, status, title)")
    }

    func testATemplateSlotWithNoSourceNamesTheSlotAndTheTemplate() {
        assertRefused(recipe(fields: "      request_id: int\n      status: string\n"), line: 16,
                      "'events.status.push' has no source for slot 'title' of \(template): add it to 'slots:' (the event's fields: request_id, status)")
    }

    func testAPathPatternThatCannotMatchIsRefused() {
        assertRefused(recipe(match: #""PUT api/x""#), line: 12,
                      "'events.status.match' can never match: the path pattern 'api/x' must start with '/'")
        assertRefused(recipe(match: #""PUT /a//b""#), line: 12,
                      "'events.status.match' can never match: the path pattern '/a//b' has an empty segment ('//' or a trailing '/')")
        assertRefused(recipe(match: #""FETCH /a""#), line: 12,
                      "'events.status.match' can never match: 'FETCH' is not an HTTP method (DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT)")
        assertRefused(recipe(fields: "      request_id: {type: int, from: path.nope}\n      status: string\n      title: string\n",
                             match: #""PUT /api/requests/:id/status""#), line: 14,
                      "'events.status.fields.request_id.from' reads capture 'nope', which the event's path pattern does not have (captures: id)")
    }

    func testAPushWithNoTemplateIsRefused() {
        assertRefused(recipe(push: "    push:\n      to: {entity: request, key: request_id}\n"), line: 17,
                      "'events.status.push' needs 'template:', the payload template file (relative to the recipe)")
    }

    func testAGroupNoEventRegistersMembersOfIsRefused() {
        assertRefused(recipe(push: "    push:\n      to: {group: stores, key: request_id}\n      template: t.json\n"), line: 18,
                      "'events.status.push.to.group' names group 'stores', which no event registers members of (with 'member_of'); groups: none")
    }

    func testARecipientFieldNothingKeepsIsRefused() {
        assertRefused(recipe(push: "    push:\n      to: {entity: request, key: request_id}\n      template: t.json\n      slots: {title: recipient.x}\n"),
                      line: 20, "'events.status.push.slots.title' names 'recipient.x', which no event keeps on a request (kept: none)")
    }

    func testAnUnknownKeyIsRefusedWithTheKnownOnes() {
        assertRefused(recipe(push: "    pussh:\n      to: {entity: request, key: request_id}\n      template: t.json\n"), line: 17,
                      "'events.status.pussh' is not a known key (known: match, fields, let, upsert, create, update, remove, key, token, set, member_of, "
                          + "join, leave, subscribe, push, require); did you mean 'push'?")
    }

    func testATypeThatIsNotATypeIsRefused() {
        assertRefused(recipe(fields: "      request_id: integer\n      status: string\n      title: string\n"), line: 14,
                      "'events.status.fields.request_id' must be a type: string, int, number, bool, token, [int] or [string], with '?' when optional; "
                          + "found 'integer'")
    }

    // MARK: - At run time

    func replay(_ yaml: String, _ lines: [String]) throws -> WorkloadLedger { try replay(yaml, lines: lines) }

    func testALineOfAKindNoEventMatchesIsAnUnknownKindBadLine() throws {
        let token = String(repeating: "ab", count: 32)
        let ledger = try replay(recipe(), [
            #"{"at":"2025-01-01T00:00:00Z","kind":"created","request_id":1,"token":"\#(token)"}"#,
            #"{"at":"2025-01-01T00:00:01Z","kind":"nope","request_id":1}"#,
            #"{"at":"2025-01-01T00:00:02Z","kind":"status","request_id":1,"status":"ok","title":"t"}"#,
        ])
        XCTAssertEqual(ledger.sent.map(\.token), [token])
        XCTAssertEqual(ledger.badLines.map(\.line), [2])
        XCTAssertEqual(ledger.badLines.map(\.cause), ["unknown_kind"])
        XCTAssertEqual(ledger.badLines.first?.detail, "line 2: unknown kind 'nope'")
        XCTAssertEqual(ledger.notSent, ["bad_line": 1])
    }

    func testAnAPICallWhosePathMatchesNoPatternIsAnUnknownKindBadLine() throws {
        let yaml = """
            recipe: api
            events:
              status:
                match: "PUT /api/requests/:id/status"
                fields:
                  request_id: {type: int, from: path.id}
                  status: {type: string, from: body.status}
                  title: string
                  token: string
                push:
                  to: {token: token}
                  template: t.json
            """
        let token = String(repeating: "cd", count: 32)
        // API log lines: no `kind`, the method and path say which event a line is.
        let ledger = try replay(yaml, [
            #"{"at":"2025-01-01T00:00:00Z","method":"PUT","path":"/api/requests/7/status","body":{"status":"ok"},"title":"t","token":"\#(token)"}"#,
            #"{"at":"2025-01-01T00:00:01Z","method":"PUT","path":"/api/other/7","body":{"status":"ok"},"title":"t","token":"\#(token)"}"#,
            #"{"at":"2025-01-01T00:00:02Z","method":"POST","path":"/api/requests/7/status","body":{"status":"ok"},"title":"t","token":"\#(token)"}"#,
        ])
        XCTAssertEqual(ledger.sent.map(\.token), [token])
        XCTAssertEqual(ledger.sent.first?.alert["body"] as? String, "ok", "read from the nested body")
        XCTAssertEqual(ledger.badLines.map(\.line), [2, 3])
        XCTAssertEqual(ledger.badLines.map(\.cause), ["unknown_kind", "unknown_kind"])
        XCTAssertEqual(ledger.badLines.map(\.detail), ["line 2: unknown kind 'PUT /api/other/7'",
                                                       "line 3: unknown kind 'POST /api/requests/7/status'"])
    }
}
