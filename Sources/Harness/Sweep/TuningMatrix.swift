import APNsCore
import APNsEngine
import Foundation
import Replay
import Reporting

/// `apnsbench sweep PROFILE --vary KEY=V1,V2 ...`: the engineer's side-by-side. The same recording is
/// replayed once per combination of the varied settings (the product of every `--vary`), each a full run
/// with its own report under `DIR/NN-key=value/`, and the runs are set in one table: what each setting did
/// to pushes sent, devices reached, connections, latency, the Live Activity budget and channel calls.
public enum TuningMatrix {
    /// The settings `--vary` can take (``RunSettings/varied``), by profile key, each laid over the profile
    /// like its run flag.
    public static var keys: [String] { RunSettings.varied.compactMap(\.profileKey) }

    public struct Request {
        public var profilePath: String
        /// Laid over the profile for every cell (before the cell's own values).
        public var overrides = RunConfigOverrides()
        public var credentials = Credentials()
        /// The CA certificate to trust for a URL, sandbox or production target (``RunRequest/caCertificatePath``).
        public var caCertificatePath: String?
        /// KEY → values, in the order given; every combination runs.
        public var vary: [(key: String, values: [String])] = []
        public var outDirectory = "reports/matrix"
        /// A stop another thread may request (a signal): the run under way is abandoned, no further run
        /// starts, and the runs completed are written.
        public var stop: RunStop?
        public var cooldownSeconds: Double = 2

        public init(profilePath: String) { self.profilePath = profilePath }
    }

    /// A `--vary KEY=V1,V2` argument: the key and its values, or the problem with it.
    public static func parse(_ argument: String) -> Result<(key: String, values: [String]), RunError> {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[1].isEmpty else {
            return .failure(RunError("--vary '\(argument)' must be KEY=V1,V2 (keys: \(keys.joined(separator: ", ")))"))
        }
        guard keys.contains(parts[0]) else {
            return .failure(RunError("--vary '\(argument)': '\(parts[0])' cannot be varied (keys: \(keys.joined(separator: ", ")))"))
        }
        let values = parts[1].split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard values.count >= 1, !values.contains(where: \.isEmpty), Set(values).count == values.count else {
            return .failure(RunError("--vary '\(argument)' needs distinct, non-empty values separated by commas"))
        }
        return .success((parts[0], values))
    }

    /// Every `--vary` argument parsed (``parse(_:)``), a key given twice refused: the product of its values
    /// would hold two values for one setting in each combination.
    public static func parse(all arguments: [String]) -> Result<[(key: String, values: [String])], RunError> {
        var parsed: [(key: String, values: [String])] = []
        for argument in arguments {
            switch parse(argument) {
            case .failure(let e): return .failure(e)
            case .success(let axis):
                if let earlier = parsed.first(where: { $0.key == axis.key }) {
                    let both = (earlier.values + axis.values).joined(separator: ",")
                    return .failure(RunError("--vary \(axis.key) is given twice (\(axis.key)=\(earlier.values.joined(separator: ",")) and \(argument)): "
                        + "give its values once, --vary \(axis.key)=\(both)"))
                }
                parsed.append(axis)
            }
        }
        return .success(parsed)
    }

    /// A `--vary` value its setting refuses: a usage error, exit 64 as for the setting's flag, reported before
    /// anything runs (`--vary connections=65: must be between 1 and 64, found 65`).
    public struct ValueError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The configuration of every combination, each checked as its run will check it (the profile, the
    /// command line's values and the combination's): a value out of range or a combination the settings'
    /// rules refuse is a ``ValueError`` naming `--vary KEY=VALUE`; a flag's is a ``RunConfigFlagError``; a
    /// profile's a ``ProfileError``. Then the run's inputs (recipes, stream, key) are read once, so that a
    /// bad one fails before the first run starts.
    public static func check(_ request: Request) throws -> [RunConfig] {
        var configurations: [RunConfig] = []
        for combination in combinations(request.vary) {
            var run = RunRequest(profilePath: request.profilePath)
            run.overrides = request.overrides
            for (key, value) in combination {
                do { try apply(key, value, to: &run.overrides) } catch let e as RunError { throw ValueError(description: e.description) }
            }
            run.credentials = request.credentials
            run.caCertificatePath = request.caCertificatePath
            do { configurations.append(try ReplayRun.configuration(run)) } catch let e as RunConfigFlagError {
                guard let (key, value) = combination.first(where: { RunSettings.profile($0.0)?.key == e.error.key }) else { throw e }
                let others = combination.filter { $0.0 != key }.map { "\($0.0)=\($0.1)" }
                throw ValueError(description: "--vary \(key)=\(value): \(e.error.problem)"
                    + (others.isEmpty ? "" : " (with \(others.joined(separator: ", ")))"))
            }
        }
        if let first = configurations.first {
            var run = RunRequest(profilePath: request.profilePath)
            run.credentials = request.credentials
            run.caCertificatePath = request.caCertificatePath
            try ReplayRun.refuseOverwritingInputs(request.outDirectory, first, run)
            _ = try RunInputs(first, credentials: request.credentials, caCertificatePath: request.caCertificatePath)
        }
        return configurations
    }

    /// `overrides` with `key` set to `value`, as the setting's row in ``RunSettings`` reads a varied value;
    /// an error naming `--vary key=value` when the value is not one.
    public static func apply(_ key: String, _ value: String, to o: inout RunConfigOverrides) throws {
        guard let setting = RunSettings.varied.first(where: { $0.profileKey == key }), let read = setting.varyValue else {
            throw RunError("--vary: '\(key)' cannot be varied (keys: \(keys.joined(separator: ", ")))")
        }
        do { try read(value, &o) } catch let e as RunConfigError {
            throw RunError("--vary \(key)=\(value): \(e.problem)")
        }
    }

    /// The table (``MatrixCell/markdown(_:)``) and the fit's line, as matrix.md and the terminal show them.
    public static func markdown(_ cells: [MatrixCell], fit: USLFit?) -> String {
        MatrixCell.markdown(cells) + (fit.map { "\n" + usl($0) + "\n" } ?? "")
    }

    /// The Universal Scalability Law fit of throughput over concurrency (connections × streams), in words.
    public static func usl(_ f: USLFit) -> String {
        String(format: "USL fit over concurrency (connections × streams): σ %.4f (contention), κ %.6f (coherency), λ %.1f pushes/s per unit, R² %.3f; ",
            f.sigma, f.kappa, f.lambda, f.rSquared)
            + (f.peakConcurrency.map { String(format: "peak at N* ≈ %.0f (%.0f pushes/s)", $0, f.peakThroughput ?? 0) }
                ?? "no peak (κ = 0: throughput levels off, never falls)")
    }

    /// Every combination, in order (the first key varies slowest).
    public static func combinations(_ vary: [(key: String, values: [String])]) -> [[(String, String)]] {
        vary.reduce([[]]) { partial, axis in partial.flatMap { prefix in axis.values.map { prefix + [(axis.key, $0)] } } }
    }

    /// What a matrix did: its cells in run order, and the USL fit when they span 3 or more concurrencies.
    public struct Outcome {
        public var cells: [MatrixCell]
        public var fit: USLFit?
        /// Set when a signal stopped the matrix: the cells are the runs completed before it.
        public var interrupted: String?
    }

    /// Runs every cell; `log` gets a line per cell as it ends.
    public static func execute(_ request: Request, log: (String) -> Void) throws -> Outcome {
        // Every combination is checked before the first run, so a bad value is refused before anything is sent.
        _ = try check(request)
        try FileManager.default.createDirectory(atPath: request.outDirectory, withIntermediateDirectories: true)
        var cells: [MatrixCell] = []
        var interrupted: String?
        for (i, combination) in combinations(request.vary).enumerated() {
            if i > 0, request.cooldownSeconds > 0 { RateSweep.cool(request.cooldownSeconds, stop: request.stop) }
            if let stop = request.stop, stop.isRequested {
                interrupted = "\(stop.reason ?? "stopped") after \(cells.count) run(s)"
                break
            }
            var run = RunRequest(profilePath: request.profilePath)
            run.overrides = request.overrides
            for (key, value) in combination { try apply(key, value, to: &run.overrides) }
            run.credentials = request.credentials
            run.caCertificatePath = request.caCertificatePath
            let name = combination.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
            run.outDirectory = (request.outDirectory as NSString).appendingPathComponent(String(format: "%02d-", i + 1) + name)
            run.stop = request.stop
            let result = try ReplayRun.execute(run, log: { _ in })
            if result.interrupted {
                // Cut short, it is not comparable with the others: left out, its report kept.
                interrupted = "\(result.report.stopReason ?? "stopped") during run \(i + 1) (\(name)): abandoned, its report in \(run.outDirectory)"
                log("matrix: " + interrupted!)
                break
            }
            let cell = MatrixCell(settings: Dictionary(uniqueKeysWithValues: combination), directory: run.outDirectory, report: result.report)
            log("matrix \(i + 1): \(name): \(cell.pushesSent) pushes sent, \(cell.devicesReached) devices reached, "
                + "p99 \(String(format: "%.1f", cell.p99Millis)) ms")
            cells.append(cell)
        }
        let fit = try? USLFit.fit(USLFit.points(cells))
        if let fit { log(usl(fit)) }
        let page = MatrixHtml.render(cells: cells, usl: fit, title: "Side by side: \((request.profilePath as NSString).lastPathComponent)")
        try page.write(toFile: (request.outDirectory as NSString).appendingPathComponent(MatrixHtml.fileName), atomically: true, encoding: .utf8)
        let json = try JSONEncoder.sortedPretty.encode(cells)
        try json.write(to: URL(fileURLWithPath: (request.outDirectory as NSString).appendingPathComponent("matrix.json")))
        try Data(markdown(cells, fit: fit).utf8).write(to: URL(fileURLWithPath: (request.outDirectory as NSString).appendingPathComponent("matrix.md")))
        return Outcome(cells: cells, fit: fit, interrupted: interrupted)
    }
}

extension JSONEncoder {
    static var sortedPretty: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return e
    }
}
