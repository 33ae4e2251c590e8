import APNsCore
import DeviceContract

/// The order of the stages a push passes between the workload that plans it and the engine that sends it.
/// Each stage is a `PushSource` that pulls from the one before it, and each lives beside this file
/// (Replay/Pipeline):
///
/// 1. the workload (`WorkloadDriver`, `MixedWorkload` or `LoopingReplay`, in Replay/Driver): events read from
///    the recording and pushes planned by the recipe's rules (Replay/Recipe);
/// 2. `ShardFilter`: only this shard's pushes, in a sharded run;
///    `PriorityOverrideSource`: the priority override laid over the pushes in its scope, when one is set;
/// 3. `Coalescer`: one push per activity and window, when coalescing is on;
/// 4. `DeviceContractSource`: each push that will be sent is checked against the app's ActivityKit model,
///    unchanged, when a model is named;
/// 5. `LiveActivityBudgetSource`: the priority-10 Live Activity budget's count (LiveActivityBudget.swift);
/// 6. `PacedSource`: each push held until its intended send time (from the `Pacer`), in open-loop schedules.
///
/// The engine (APNsEngine) then pulls from the last stage, and every push ends in exactly one outcome.
public struct SendPipeline {
    public let source: PushSource
    public let coalescer: Coalescer?
    public let contract: DeviceContractSource?
    public let budget: LiveActivityBudgetSource?
    public let priorityOverride: PriorityOverrideSource?
    /// The schedule's stage, in open-loop schedules (the run anchors it at its start).
    public let paced: PacedSource?

    /// - Parameters:
    ///   - checks: the device-contract check of each push kind (nil where none).
    ///   - kindTypes: the push type of each push kind (the budget counts the Live Activity kinds only; a priority
    ///     override reaches the kinds in its scope); nil: one kind per part of the workload, as its push type says.
    public init(_ driver: PushSource, _ config: RunConfig, checks: [PayloadCheck?] = [], kindTypes: [PushType]? = nil) {
        var source: PushSource = driver
        let kinds = kindTypes ?? config.workload.parts.map(\.pushType)
        if let shard = config.shard, shard.count > 1 { source = ShardFilter(source, shard: shard) }
        priorityOverride = config.payload.priorityOverride.map { [source] in PriorityOverrideSource(source, override: $0, kinds: kinds) }
        if let priorityOverride { source = priorityOverride }
        coalescer = config.coalescing.window.map { [source] in Coalescer(source, windowMillis: $0.millis) }
        if let coalescer { source = coalescer }
        contract = checks.contains { $0 != nil } ? DeviceContractSource(source, checks: checks) : nil
        if let contract { source = contract }
        let perHour = config.liveActivityBudgetPerHour
        // Only the push kinds that send Live Activity updates count against the budget (a mix's parts, a rule's own push type).
        let counted = kinds.map { $0 == .liveactivity }
        budget = perHour > 0 ? LiveActivityBudgetSource(source, perHour: perHour, countedKinds: counted) : nil
        if let budget { source = budget }
        paced = config.schedule.mode.isOpenLoop ? PacedSource(source, pacer: Pacer(config.effectiveSchedule)) : nil
        if let paced { source = paced }
        self.source = source
    }
}
