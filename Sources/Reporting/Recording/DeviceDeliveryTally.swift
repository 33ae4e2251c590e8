import APNsCore
import DeviceDelivery
import Histogram

/// Runs the device model over a run's delivered pushes and counts what it said: outcomes by class and
/// cause, and time to device (ms of recorded time) by priority and push type.
public struct DeviceDeliveryTally {
    /// The highest time to device tracked: 31 days in ms (the storage limit, and a little more).
    static let highestMillis: UInt64 = 31 * 86_400_000

    private var outcomes: [DeviceDeliveryOutcomeClass: Int] = [:]
    private var replaced: [String: Int] = [:]
    private var dropped: [String: Int] = [:]
    private var shownStale = 0
    private var byPriority: [Priority: Histogram<UInt64>] = [:]
    private var byPushType: [PushType: Histogram<UInt64>] = [:]
    private let parameters: DeviceDeliveryParameters
    private(set) var pushes = 0

    /// The model run over `pushes` (in recorded order), every outcome counted.
    public init(pushes: [DeviceDeliveryPush], parameters: DeviceDeliveryParameters) {
        self.parameters = parameters
        var model = DeviceDeliveryModel(parameters: parameters)
        var results = [DeviceDeliveryOutcome?](repeating: nil, count: pushes.count)
        for (i, push) in pushes.enumerated() { model.receive(push, id: i) { results[$0] = $1 } }
        model.finish { results[$0] = $1 }
        for (push, outcome) in zip(pushes, results) {
            guard let outcome else { preconditionFailure("the device model gave a push no outcome") }
            count(outcome, of: push)
        }
    }

    private mutating func count(_ outcome: DeviceDeliveryOutcome, of push: DeviceDeliveryPush) {
        pushes += 1
        outcomes[DeviceDeliveryOutcomeClass(outcome, onTimeMillis: parameters.onTimeMillis), default: 0] += 1
        switch outcome {
        case let .displayed(after, stale):
            if stale { shownStale += 1 }
            let ms = Swift.min(UInt64(Swift.max(0, after)), Self.highestMillis)
            byPriority[push.priority, default: Self.makeHistogram()].record(ms)
            byPushType[push.pushType, default: Self.makeHistogram()].record(ms)
        case let .replaced(cause): replaced[cause.rawValue, default: 0] += 1
        case let .dropped(cause): dropped[cause.rawValue, default: 0] += 1
        case .throttled: break
        }
    }

    static func makeHistogram() -> Histogram<UInt64> {
        Histogram<UInt64>(lowestDiscernibleValue: 1, highestTrackableValue: highestMillis, numberOfSignificantValueDigits: .three)
    }

    /// The report's section.
    public var section: RunReport.DeviceDelivery {
        RunReport.DeviceDelivery(
            parameters: parameters, pushes: pushes,
            outcomes: Dictionary(uniqueKeysWithValues: DeviceDeliveryOutcomeClass.allCases.map { ($0.rawValue, outcomes[$0] ?? 0) }),
            replaced: replaced, dropped: dropped, shownStale: shownStale,
            timeToDevice: .init(histograms: Dictionary(uniqueKeysWithValues: byPriority.map { (String($0.key.rawValue), $0.value) }),
                                byPushType: Dictionary(uniqueKeysWithValues: byPushType.map { ($0.key.rawValue, $0.value) })))
    }
}
