import APNsCore
import Foundation
@testable import Replay
import TestSupport
import XCTest

/// A many-to-many relation kept by its own events: users follow and unfollow topics (`join:`, `leave:`), one
/// call each, and a post to a topic reaches its followers, each once when a post names several topics.
final class RecipeManyToManyTests: RecipeScratchCase {
    private let yaml = """
        recipe: topics
        events:
          login:
            match: {kind: login}
            fields: {user_id: int, token: token, team: int}
            upsert: user
            key: user_id
            token: token
            member_of: {teams: team}
          follow:
            match: {kind: follow}
            fields: {user_id: int, topic_id: int, weight: int}
            update: user
            key: user_id
            join: {followers: topic_id}
            set: {share: "100 / weight"}
          unfollow:
            match: {kind: unfollow}
            fields: {user_id: int, topic_id: int}
            update: user
            key: user_id
            leave: {followers: topic_id}
          post:
            match: {kind: post}
            fields: {topic_ids: "[int]"}
            push:
              to: {group: followers, key: topic_ids}
              template: t.json
              slots: {title: recipient.key}
        """

    private func login(_ user: Int, team: Int = 1) -> String { #"{"kind":"login","user_id":\#(user),"token":"\#(token(user))","team":\#(team)}"# }
    private func follow(_ user: Int, _ topic: Int, weight: Int = 1) -> String {
        #"{"kind":"follow","user_id":\#(user),"topic_id":\#(topic),"weight":\#(weight)}"#
    }
    private func unfollow(_ user: Int, _ topic: Int) -> String { #"{"kind":"unfollow","user_id":\#(user),"topic_id":\#(topic)}"# }
    private func post(_ topics: [Int]) -> String { #"{"kind":"post","topic_ids":\#(topics)}"# }

    private func replay(_ lines: [String]) throws -> WorkloadLedger { try replay(yaml, lines: timed(lines)) }

    func testFollowsAddedAndRemovedByTheirOwnEventsChooseWhomAPostReaches() throws {
        // Users 1 and 2 follow topic 10; 1 also follows 20, then unfollows 10; 3 follows 20.
        let ledger = try replay([login(1), login(2), login(3), follow(1, 10), follow(2, 10), follow(1, 20), follow(3, 20), post([10]),
                                 unfollow(1, 10), post([10]), post([20])])
        XCTAssertEqual(ledger.sent.map(\.token), [token(1), token(2), token(2), token(1), token(3)])
    }

    func testAPostToSeveralTopicsReachesEachFollowerOnce() throws {
        let ledger = try replay([login(1), login(2), follow(1, 10), follow(2, 20), follow(1, 20), post([20, 10])])
        XCTAssertEqual(ledger.sent.map(\.token), [token(2), token(1)], "user 1 follows both, reached once where first reached (topic 20)")
    }

    func testALaterRegistrationKeepsTheFollowsAndABadFollowChangesNothing() throws {
        let ledger = try replay([login(1), follow(1, 10), login(1, team: 2), follow(1, 20, weight: 0), post([10]), post([20])])
        XCTAssertEqual(ledger.sent.map(\.token), [token(1)], "the re-login kept topic 10; the bad line did not join 20")
        XCTAssertEqual(ledger.notSent, ["bad_line": 1, "no_recipients": 1])
        XCTAssertEqual(ledger.badLines.map(\.line), [4])
    }

    func testAGroupKeptBothWaysIsRefused() {
        let bad = yaml.replacingOccurrences(of: "member_of: {teams: team}", with: "member_of: {followers: team}")
        XCTAssertThrowsError(try RecipeLoader.load(yaml: bad, file: file)) {
            XCTAssertEqual("\($0)", "\(self.file):9: 'events.login.member_of.followers' names group 'followers', which events keep with 'join:' and "
                + "'leave:': a group is kept one way, replaced by each registration (member_of) or joined and left by its own events")
        }
    }

    func testLeavingAGroupNoEventJoinsIsRefused() {
        let bad = yaml.replacingOccurrences(of: "leave: {followers: topic_id}", with: "leave: {teams: topic_id}")
        XCTAssertThrowsError(try RecipeLoader.load(yaml: bad, file: file)) {
            XCTAssertEqual("\($0)", "\(self.file):22: 'events.unfollow.leave.teams' names group 'teams', which no event joins (with 'join:'); "
                + "joined groups: followers")
        }
    }
}
