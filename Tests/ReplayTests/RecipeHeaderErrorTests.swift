import APNsCore
import Foundation
@testable import Replay
import XCTest

/// The mistakes a push rule's header values read from fields can hold, refused when the recipe is loaded with
/// the file, the line and the key; the messages are asserted whole.
extension RecipeLoaderErrorTests {
    private func push(_ extra: String, fields: String = "      request_id: int\n      status: string\n      title: string\n") -> String {
        recipe(fields: fields, push: "    push:\n      to: {entity: request, key: request_id}\n      template: t.json\n" + extra)
    }

    func testAFormatWithoutItsClosingBracesIsRefused() {
        assertRefused(push("      collapse_id: \"r-{{request_id\"\n"), line: 20, "'events.status.push.collapse_id' has '{{' without a closing '}}'")
    }

    func testAFormatNamingNoFieldIsRefusedWithTheEventsFields() {
        assertRefused(push("      collapse_id: \"r-{{reqest_id}}\"\n"), line: 20,
                      "'events.status.push.collapse_id' names 'reqest_id', which is not a field of event 'status' (fields: request_id, status, title)")
    }

    func testALiveActivityEventCannotReadTheRecipient() {
        assertRefused(push("      live_activity_event: recipient.key\n"), line: 20,
                      "'events.status.push.live_activity_event' reads the recipient, but a push rule's Live Activity event is one per event: "
                          + "read it from the event, or write one push rule per event kind, each with its own 'when:'")
    }

    func testAHeaderTableCannotReadTheRecipient() {
        assertRefused(push("      collapse_id: {from: recipient.key, map: {a: x}}\n"), line: 20,
                      "'events.status.push.collapse_id.from' reads the recipient, but a table picks the push kind, once per event: "
                          + "write an expression that reads the recipient instead (read per push)")
    }

    func testAnExpirationFromATextFieldIsRefused() {
        assertRefused(push("      expiration_seconds: status\n"), line: 20,
                      "'events.status.push.expiration_seconds' must read an int: seconds after the run's start")
    }

    func testAHeaderFromAListFieldIsRefused() {
        assertRefused(push("      collapse_id: {from: tags}\n",
                           fields: "      request_id: int\n      status: string\n      title: string\n      tags: '[string]'\n"),
                      line: 21,
                      "'events.status.push.collapse_id' reads a list ([string]); 'collapse_id' takes one value")
    }

    func testAFormatWhoseTextAloneIsOverAPNsLimitIsRefused() {
        let text = String(repeating: "x", count: 65)
        assertRefused(push("      collapse_id: \"\(text){{request_id}}\"\n"), line: 20,
                      "'events.status.push.collapse_id' has 65 bytes of text around its fields; a collapse id is at most 64 bytes (APNs' limit)")
    }

    func testADefaultOfTheWrongKindIsRefused() {
        assertRefused(push("      expiration_seconds: {from: request_id, default: soon}\n"), line: 20,
                      "'events.status.push.expiration_seconds.default' must be a number of seconds from 0 to 31536000")
    }
}
