import APNsCore

/// The configured workload as the run's push source: each part's ``Recipe`` run by ``RecipeRules`` over its
/// recording.
public enum Workloads {
    /// The recipe of each part of the workload (one unless it is a mix), read from its file.
    public static func recipes(_ workload: RunConfig.Workload) throws -> [Recipe] {
        try workload.parts.map { part in
            guard let path = part.recipe else { throw ProfileError(file: part.name, line: nil, message: "names no recipe") }
            return try RecipeLoader.load(path: path)
        }
    }

    /// The recipes of a run's workload, checked against how it delivers: broadcast delivery needs a recipe
    /// that names its broadcast group.
    public static func recipes(for config: RunConfig) throws -> [Recipe] {
        let recipes = try recipes(config.workload)
        if config.deliveryMode == .broadcast, let r = recipes.first, !r.broadcasts {
            throw ProfileError(file: r.source, line: nil, message: "delivery is broadcast, but the recipe names no broadcast group: "
                + "add 'broadcast: {group: G}' (a group whose members' activities subscribe to its key's channel with 'subscribe:'), or deliver to devices")
        }
        return recipes
    }

    /// The first ``OutgoingPush/kind`` of each part: a part's pushes carry its first kind plus the index of their
    /// rule's push kind (``Recipe/pushKinds``).
    public static func firstKinds(_ recipes: [Recipe]) -> [Int32] {
        var next: Int32 = 0
        return recipes.map { r in
            defer { next += Int32(r.pushKinds.count) }
            return next
        }
    }

    /// The configured workload as the run's push source: one recording's ``WorkloadDriver``, or a mix's
    /// ``MixedWorkload`` over its parts.
    /// - Parameters:
    ///   - recipes: each part's recipe (``recipes(_:)``).
    ///   - channels: broadcast delivery's channels by the broadcast group's key; nil: device delivery.
    ///   - timeShiftMillis: added to every recorded time (a looped recording's later passes).
    public static func source(_ workload: RunConfig.Workload, priority: Priority, recipes: [Recipe],
                              channels: BroadcastChannels? = nil, timeShiftMillis: Int64 = 0) throws -> ReplaySource {
        guard let mix = workload.mix else {
            let d = try driver(workload, priority: priority, recipe: recipes[0], channels: channels)
            d.timeShiftMillis = timeShiftMillis
            return d
        }
        precondition(channels == nil, "broadcast delivery is one recording")
        let kinds = firstKinds(recipes)
        return MixedWorkload(parts: try mix.enumerated().map { i, part in
            let d = try driver(part, priority: priority, recipe: recipes[i])
            d.kind = kinds[i]
            d.timeShiftMillis = timeShiftMillis
            return d
        })
    }

    /// The run's push source: the configured workload, replayed pass after pass when the schedule says to
    /// loop the recording (``LoopingReplay``).
    public static func replay(_ config: RunConfig, recipes: [Recipe], channels: BroadcastChannels? = nil) throws -> ReplaySource {
        let first = try source(config.workload, priority: config.payload.priority, recipes: recipes, channels: channels)
        guard config.schedule.loopRecording == true else { return first }
        return LoopingReplay(first: first) { shift in
            try source(config.workload, priority: config.payload.priority, recipes: recipes, channels: channels, timeShiftMillis: shift)
        }
    }

    /// One recording's recipe over its stream, as the engine's push source.
    public static func driver(_ workload: RunConfig.Workload, priority: Priority, recipe: Recipe,
                              channels: BroadcastChannels? = nil) throws -> WorkloadDriver {
        let rules = RecipeRules(recipe, priority: priority, channels: channels)
        return WorkloadDriver(reader: try EventStreamReader(path: workload.stream, shape: recipe.recordShape), rules: rules, badLines: workload.badLines,
            priority: priority)
    }
}
