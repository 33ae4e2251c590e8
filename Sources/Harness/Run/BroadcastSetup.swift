import APNsCore
import APNsEngine
import Foundation
import Replay
import Reporting

/// Broadcast delivery's bracket around a run: before it, one channel per store the recording subscribes
/// activities to (found by reading the stream once), created through the channel-management API; after
/// it, those channels deleted (unless `keep_channels`). It never creates a channel the stream does not
/// need, and it deletes what it created even when the run failed.
final class BroadcastSetup {
    let client: ChannelClient
    let channels: BroadcastChannels
    /// Stores that have subscribers in the recording.
    let stores: [Int]
    private(set) var deleted = 0
    private(set) var deleteFailures: [String: Int] = [:]

    /// Reads the stream for the stores activities subscribe to, then creates their channels; the first
    /// refusal for the channel limit stops creating (those stores' updates are not sent `channel_limit`),
    /// any other refusal deletes what was made and fails the run naming the answer.
    /// - Parameter recipe: the recording's recipe (it says which line key names an activity's channel).
    init(_ config: RunConfig, recipe: Recipe, managementURL: String, trustedCertificatePEM: String?, tokens: ProviderTokenCache,
         log: (String) -> Void) throws {
        stores = try BroadcastChannels.subscribedStores(stream: config.workload.stream, recipe: recipe)
        client = try ChannelClient(baseURL: managementURL, bundleID: config.workload.bundleID,
                                   trustedCertificatePEM: trustedCertificatePEM, bearer: { tokens.bearer() })
        // A channel that keeps the latest message needs an expiration to keep it by; one that keeps nothing
        // must be sent expiration 0 (APNs' rule for broadcasts).
        let policy = (config.payload.expiration ?? .zero) > .zero ? 1 : 0
        log("apnsbench: creating \(stores.count) broadcast channel(s) (message-storage-policy \(policy)) at \(managementURL) for \(config.workload.bundleID)")
        var byStore: [Int: BroadcastChannels.Channel] = [:]
        var refused = Set<Int>()
        for store in stores {
            if !refused.isEmpty {
                refused.insert(store)
                continue
            }
            let answer: ChannelClient.Answer
            do { answer = try client.create(storagePolicy: policy) } catch {
                Self.deleteAll(byStore.values.map(\.id), client)
                throw RunError("\(error)")
            }
            if answer.status == 201, let id = answer.channelID {
                byStore[store] = BroadcastChannels.Channel(index: Int32(byStore.count), id: id)
            } else if Self.isChannelLimit(answer) {
                log("apnsbench: the channel API refused channel \(byStore.count + 1) (\(answer.reason ?? String(answer.status))): the app's channel limit; "
                    + "updates of the \(stores.count - byStore.count) store(s) left count as not sent (channel_limit)")
                refused.insert(store)
            } else {
                Self.deleteAll(byStore.values.map(\.id), client)
                throw RunError("the channel API at \(managementURL) refused to create a channel for \(config.workload.bundleID): "
                    + "HTTP \(answer.status) \(answer.reason ?? answer.body)")
            }
        }
        channels = BroadcastChannels(byStore: byStore, refused: refused)
    }

    /// Deletes every channel this run created; failures are counted, never fatal (the report says so).
    func deleteChannels(log: (String) -> Void) {
        for id in channels.idsByIndex {
            guard let answer = try? client.delete(id) else {
                deleteFailures["transport", default: 0] += 1
                continue
            }
            if answer.status == 204 { deleted += 1 } else { deleteFailures[answer.reason ?? String(answer.status), default: 0] += 1 }
        }
        log("apnsbench: deleted \(deleted) of \(channels.byStore.count) broadcast channel(s)\(deleteFailures.isEmpty ? "" : ", failed: \(deleteFailures)")")
    }

    private static func deleteAll(_ ids: [String], _ client: ChannelClient) {
        for id in ids { _ = try? client.delete(id) }
    }

    /// The answer to one channel too many: 400 `CannotCreateChannelConfig` (Apple's error table: the app
    /// reached its channel limit).
    static func isChannelLimit(_ a: ChannelClient.Answer) -> Bool {
        a.reason == Reason.cannotCreateChannelConfig.rawValue
    }
}
