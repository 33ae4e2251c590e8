import APNsCore
import ArgumentParser

/// `body`, with an output path it refuses (``OutputPath/Refusal``: an input written over, a report replaced
/// without --force) turned into a usage error: exit 64, the message and the command's usage.
func refusingOutput<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as OutputPath.Refusal { throw ValidationError(e.description) }
}
