import APNsCore
import Foundation
import NIOCore

/// The body of `POST /1/apps/<bundle>/channels`, read strictly:
/// `{"message-storage-policy": 0|1, "push-type": "LiveActivity"}`.
///
/// Checked in this order, each with its reason:
/// - empty body: `PayloadEmpty`;
/// - not JSON, or not a JSON object: `BadRequestPayload` ("the JSON request payload is unparseable");
/// - a key other than the two: `BadRequestParams` ("contained an unrecognizable attribute");
/// - no `message-storage-policy`: `MissingMessageStoragePolicy`, the simulator's own reason (not in
///   Apple's published list; named after Apple's `MissingPushType`);
/// - a `message-storage-policy` that is not the integer 0 or 1 (`2`, `"1"`, `true`, `null`):
///   `BadRequestParams` (Apple names no reason for it; an attribute value APNs cannot recognize);
/// - no `push-type`: `MissingPushType`;
/// - a `push-type` other than `LiveActivity` (compared case-insensitively: Apple's pages spell it
///   `LiveActivity`, `Liveactivity` and `liveactivity`): `InvalidPushType`.
enum ChannelCreateBody {
    /// `MissingMessageStoragePolicy`, 400: the simulator's own reason for a create body without
    /// `message-storage-policy` (not in Apple's published list).
    static let missingMessageStoragePolicy = Reason(rawValue: "MissingMessageStoragePolicy", status: 400, handling: .fixRequest)

    static let policyKey = "message-storage-policy"
    static let pushTypeKey = "push-type"
    /// The only push type a channel takes, as a read answers it.
    static let liveActivity = "LiveActivity"

    static func parse(_ body: ByteBuffer) -> Checked<MessageStoragePolicy> {
        guard body.readableBytes > 0 else { return .refused(.payloadEmpty) }
        guard let fields = try? JSONDecoder().decode(Fields.self, from: Data(body.readableBytesView)) else {
            return .refused(.badRequestPayload)
        }
        if fields.keys.contains(where: { $0 != policyKey && $0 != pushTypeKey }) { return .refused(.badRequestParams) }
        guard fields.hasPolicy else { return .refused(missingMessageStoragePolicy) }
        guard let raw = fields.policy, let policy = MessageStoragePolicy(rawValue: raw) else { return .refused(.badRequestParams) }
        guard fields.hasPushType else { return .refused(.missingPushType) }
        guard let type = fields.pushType, type.lowercased() == "liveactivity" else { return .refused(.invalidPushType) }
        return .valid(policy)
    }

    /// The body's keys and the two values, each nil when absent or of the wrong JSON type.
    private struct Fields: Decodable {
        var keys: [String]
        var hasPolicy: Bool
        var policy: Int?
        var hasPushType: Bool
        var pushType: String?

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ s: String) { stringValue = s }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: Decoder) throws {
            // Throws for anything but an object: BadRequestPayload.
            let c = try decoder.container(keyedBy: Key.self)
            keys = c.allKeys.map(\.stringValue)
            let policyKey = Key(ChannelCreateBody.policyKey), typeKey = Key(ChannelCreateBody.pushTypeKey)
            hasPolicy = c.contains(policyKey)
            policy = try? c.decode(Int.self, forKey: policyKey)
            hasPushType = c.contains(typeKey)
            pushType = try? c.decode(String.self, forKey: typeKey)
        }
    }
}
