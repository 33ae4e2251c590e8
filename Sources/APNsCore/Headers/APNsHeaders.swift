/// The APNs request headers apnsbench sends, one row each, in the order a push kind's prebuilt list carries
/// them (the engine puts `authorization`, `content-type` and libcurl's blanked `Accept:`/`Expect:` after the rows
/// carried by kind and priority). To add a header: add a row here, put it in ``all``, and test it; a row carried
/// in a slot gets the recipe key, the per-push storage, the engine's line, the plan's key and its checks from here.
public enum APNsHeaders {
    public static let pushType = APNsHeader(
        name: "apns-push-type", key: "push_type", sources: [.profile, .recipeConstant], carrier: .kind,
        value: .oneOf(PushType.allCases.map(\.rawValue)))
    public static let topic = APNsHeader(
        name: "apns-topic", key: "topic", sources: [.profile, .recipeConstant], carrier: .kind,
        value: .text(maxBytes: 255, noun: "a topic"))
    public static let priority = APNsHeader(
        name: "apns-priority", key: "priority", sources: [.profile, .recipeConstant, .field, .expression], carrier: .priority,
        value: .oneOf(Priority.allCases.map(\.description)))
    /// Seconds after the run's start (or, from `expiration_at`, after the push's send); 0: now or never.
    public static let expiration = APNsHeader(
        name: "apns-expiration", key: "expiration_seconds", sources: [.profile, .recipeConstant, .field, .expression], carrier: .slot(0),
        value: .seconds(0 ... 31_536_000))
    public static let collapseID = APNsHeader(
        name: "apns-collapse-id", key: "collapse_id", sources: [.profile, .recipeConstant, .field, .expression, .format], carrier: .slot(1),
        value: .text(maxBytes: 64, noun: "a collapse id"))

    /// The client's id for the push, which APNs (and the simulator) echoes in its answer: a UUID read from an
    /// event's field, or made for each push (`apns_id: per_push`, from the push's origin, so a plan is reproducible).
    /// A report sample keeps it, to match an answer to its push.
    public static let apnsID = APNsHeader(
        name: "apns-id", key: "apns_id", sources: [.field, .expression, .format, .perPush], carrier: .slot(2),
        value: .uuid, inReportSamples: true)

    /// Every row, in list order.
    public static let all: [APNsHeader] = [pushType, topic, priority, expiration, collapseID, apnsID]
    /// The rows a push may carry itself, by slot.
    public static let perPush: [APNsHeader] = all.filter { $0.slot != nil }.sorted { $0.slot! < $1.slot! }
    /// The rows whose value is text a recipe writes per event or per push (read from a field, a format or an
    /// expression, or made per push), by slot.
    public static let perPushText: [APNsHeader] = perPush.filter { if case .seconds = $0.value { return false } else { return true } }
}
