/// What `apnsbench simulate --report` adds to the run report's schema: the requests a sender (any client,
/// in any language) made of the standalone simulator, seen from the server. The rest of such a report uses
/// the run report's fields from the server's side: `pushes.planned` is every request received,
/// `delivered` those answered 200, `rejected` by reason, `failed.no_answer` those a fault reset or stalled;
/// latency is the time in the simulator (from a request's last frame to its answer, `responseTime` and
/// `serviceTime` alike), by push type when one was sent; the timeline is arrivals and
/// answers per interval; `engine.connectionsOpened` and `providerTokenSignings` are the sender's
/// connections and the provider tokens the simulator verified. So `report`, `compare` and `merge` read it
/// as any run report.
extension RunReport {
    public struct Received: Codable, Sendable, Equatable {
        /// Every request by push type, topic, priority and answer, most first: the counts add up to
        /// `pushes.planned`.
        public var requests: [RequestClass]
        public var providerTokens: ProviderTokens
        public var connections: Connections
        /// Live Activity priority-10 pushes per device token against the hourly budget; absent without any.
        public var liveActivityBudget: BudgetPerToken?

        public init(requests: [RequestClass], providerTokens: ProviderTokens, connections: Connections, liveActivityBudget: BudgetPerToken?) {
            self.requests = requests
            self.providerTokens = providerTokens
            self.connections = connections
            self.liveActivityBudget = liveActivityBudget
        }

        /// Requests alike in their headers and their answer. Absent headers are `-`.
        public struct RequestClass: Codable, Sendable, Equatable, Hashable {
            public var pushType: String
            public var topic: String
            public var priority: String
            /// `200`, the reason of a rejection (`BadDeviceToken`), or `no_answer`.
            public var answer: String
            public var count: Int

            public init(pushType: String, topic: String, priority: String, answer: String, count: Int) {
                self.pushType = pushType
                self.topic = topic
                self.priority = priority
                self.answer = answer
                self.count = count
            }
        }

        /// The sender's provider-token behaviour.
        public struct ProviderTokens: Codable, Sendable, Equatable {
            /// Distinct tokens the simulator verified (a token seen again on a connection is not verified again):
            /// the sender's signings, once per connection each.
            public var verified: Int
            /// Rejected `TooManyProviderTokenUpdates` (a new token more often than every 20 minutes).
            public var tooManyUpdates: Int
            /// Rejected `ExpiredProviderToken` (issued more than an hour before).
            public var expired: Int
            /// Rejected `InvalidProviderToken` or `MissingProviderToken`.
            public var invalidOrMissing: Int

            public init(verified: Int, tooManyUpdates: Int, expired: Int, invalidOrMissing: Int) {
                self.verified = verified
                self.tooManyUpdates = tooManyUpdates
                self.expired = expired
                self.invalidOrMissing = invalidOrMissing
            }
        }

        /// Connections the sender opened, and the streams (requests) each carried.
        public struct Connections: Codable, Sendable, Equatable {
            public var opened: Int
            public var closed: Int
            /// Requests per connection, in accept order (the last 10,000 connections).
            public var requestsPerConnection: [Int]
            /// The most requests awaiting their answer at once on one connection: the open streams the sender
            /// kept (absent in reports written before it was counted).
            public var mostOpenStreams: Int?

            public init(opened: Int, closed: Int, requestsPerConnection: [Int], mostOpenStreams: Int? = nil) {
                self.opened = opened
                self.closed = closed
                self.requestsPerConnection = requestsPerConnection
                self.mostOpenStreams = mostOpenStreams
            }
        }

        /// The Live Activity budget per device token: iOS throttles priority-10 updates past it.
        public struct BudgetPerToken: Codable, Sendable, Equatable {
            /// The budget: priority-10 updates per token per hour.
            public var perHour: Int
            /// Tokens that got a priority-10 Live Activity push, and how many the busiest got.
            public var tokens: Int
            public var mostPerToken: Int
            /// Tokens with at least one push past the budget, and the pushes past it.
            public var tokensOverBudget: Int
            public var overruns: Int

            public init(perHour: Int, tokens: Int, mostPerToken: Int, tokensOverBudget: Int, overruns: Int) {
                self.perHour = perHour
                self.tokens = tokens
                self.mostPerToken = mostPerToken
                self.tokensOverBudget = tokensOverBudget
                self.overruns = overruns
            }
        }
    }
}
