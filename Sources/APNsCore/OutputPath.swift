import Foundation

/// Where a command writes, checked before it writes anything: no command writes over its own input, and a
/// report folder that already holds a report is replaced only when asked (`--force`).
///
/// The rule, as `docs/commands.md` states it: an output path that is one of the command's inputs, or a
/// folder that holds one, is refused, naming both. A report folder given with `--out` (`run`, `merge`,
/// `sweep`) that already holds a report (``reportFiles``) is refused unless `--force`; a command's default
/// folder (`reports/latest`, `reports/sweep`, `reports/matrix`) holds its last output and is replaced.
public enum OutputPath {
    /// The files whose presence makes a folder a report folder: a run's, a knee sweep's, a side-by-side's.
    public static let reportFiles = ["report.json", "sweep.json", "matrix.json"]

    /// One thing a command reads: what it is (`the recording`) and its path.
    public struct Input: Sendable {
        public let what: String
        public let path: String
        public init(_ what: String, _ path: String) {
            self.what = what
            self.path = path
        }
    }

    /// `path` absolute, with `..` and symbolic links resolved.
    public static func resolved(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    /// Whether `output` is `input`, or a folder that holds it (at any depth): the same path, or the same file
    /// reached by another name (a hard link).
    public static func holds(_ output: String, _ input: String) -> Bool {
        let o = resolved(output), i = resolved(input)
        return i == o || i.hasPrefix(o == "/" ? o : o + "/") || sameFile(o, i)
    }

    /// Whether `output` lies inside the folder `input` (a write into an input folder).
    public static func liesInside(_ output: String, _ input: String) -> Bool {
        let o = resolved(output), i = resolved(input)
        return o.hasPrefix(i == "/" ? i : i + "/")
    }

    /// Whether both paths exist and are one file (the same device and inode).
    static func sameFile(_ a: String, _ b: String) -> Bool {
        let fm = FileManager.default
        guard let x = try? fm.attributesOfItem(atPath: a), let y = try? fm.attributesOfItem(atPath: b),
              let xi = x[.systemFileNumber] as? NSNumber, let yi = y[.systemFileNumber] as? NSNumber,
              let xd = x[.systemNumber] as? NSNumber, let yd = y[.systemNumber] as? NSNumber else { return false }
        return xi == yi && xd == yd
    }

    /// Throws ``Refusal`` naming both when `output` is, holds, or lies inside one of `inputs`.
    /// - Parameter flag: how the command line gave `output` (`--out`, `--dead-tokens`).
    public static func refuseOverwriting(_ output: String, flag: String = "--out", inputs: [Input]) throws {
        for input in inputs where holds(output, input.path) || liesInside(output, input.path) {
            let relation = resolved(output) == resolved(input.path) || sameFile(output, input.path) ? "is"
                : holds(output, input.path) ? "holds" : "lies inside"
            throw Refusal(description: "\(flag) \(output) \(relation) \(input.what) \(input.path), an input of this command: "
                + "write elsewhere (no command writes over its own input)")
        }
    }

    /// Throws ``Refusal`` when `folder` already holds a report and `force` is false.
    public static func refuseReplacingReport(_ folder: String, flag: String = "--out", force: Bool) throws {
        guard !force else { return }
        for name in reportFiles {
            let path = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: path) {
                throw Refusal(description: "\(flag) \(folder) already holds a report (\(path)): give another folder, or --force to replace it")
            }
        }
    }

    /// An output path refused, with why.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let description: String
    }
}

extension RunConfig {
    /// Every file a run of this configuration reads: the profile, each part's recording, recipe, dead-token
    /// list and ActivityKit model, and the APNs model file.
    public var inputFiles: [OutputPath.Input] {
        var inputs = [OutputPath.Input("the profile", profilePath)]
        for part in workload.parts {
            inputs.append(.init("the recording", part.stream))
            if let recipe = part.recipe { inputs.append(.init("the recipe", recipe)) }
            if let dead = part.deadTokens { inputs.append(.init("the dead_tokens list", dead)) }
            if let model = part.activityModel { inputs.append(.init("the activity_model", model.path)) }
        }
        if let dead = workload.deadTokens, workload.mix != nil { inputs.append(.init("the dead_tokens list", dead)) }
        if let model = simulator.model, APNsLatencyModel.named(model) == nil { inputs.append(.init("the APNs model file", model)) }
        return inputs.filter { !$0.path.isEmpty }
    }
}
