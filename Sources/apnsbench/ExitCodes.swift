import ArgumentParser

/// apnsbench's exit codes: one meaning each, listed in `apnsbench --help` and the README.
enum ExitCodes {
    /// The command did its work (a run completed, whatever APNs answered).
    static let done = ExitCode.success
    /// Bad input or a setup failure (a profile, stream, template, key or report that cannot be used; a
    /// target that cannot be reached), with the cause named.
    static let failure = ExitCode.failure
    /// compare: at least one metric regressed.
    static let regression = ExitCode(2)
    /// compare: improvements and no regression, with `--fail-on-improvement`.
    static let improvementsOnly = ExitCode(4)
    /// compare: the runs are not comparable (schema, workload, recording, configuration or environment differ).
    static let incomparable = ExitCode(5)
    /// merge: the shard reports are incomplete or do not belong together.
    static let mergeRefused = ExitCode(6)
    /// A run stopped at a bad stream line under `bad_lines: stop`; the report was still written.
    static let stoppedAtBadLine = ExitCode(3)
    /// The run completed and its report was written, but a rule of its SLO was missed (k6's convention).
    static let sloMissed = ExitCode(99)
    /// A command line the parser refuses (unknown flag, bad value, conflicting flags).
    static let usage = ExitCode.validationFailure

    /// The table `--help` and the README show.
    static let help = """
        Exit codes:
          0   done (a run completed, whatever APNs answered)
          1   bad input or setup failure, with the cause named (a report that breaks an invariant: each violation)
          3   run stopped at a bad stream line (bad_lines: stop); the report was written (plan: the walk stopped there)
          64  usage: a flag or argument the command line parser refuses
          6   merge refused: shards missing, repeated, or of different runs, configurations or recordings; senders'
              reports mixed with a run's shards, given twice, or from simulators configured apart
          99  the run completed and its report was written, but its SLO was missed (one ✗ line per rule missed);
              sweep: no knee, or a knee under --peak's required headroom
          130 run stopped by SIGINT (143: by SIGTERM); in-flight pushes were drained and the report was written
        """

    /// compare's own table (`apnsbench compare --help`).
    static let compareHelp = """
        Exit codes:
          0   no regression (improvements too, unless --fail-on-improvement)
          1   bad input: a report that cannot be read or breaks an invariant (each violation named), a folder with
              no report.json, with the path named
          2   regression: at least one metric got worse past its tolerances (and, with 3+ runs a side, past noise);
              with --exact-counts: at least one count differs
          4   improvements only, with --fail-on-improvement (time to update the baseline)
          5   incomparable: the runs differ in schema, workload, recording, configuration or environment (each named)
          64  usage: a flag or argument the command line parser refuses
        """
}
