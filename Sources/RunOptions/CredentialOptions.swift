import APNsCore
import ArgumentParser
import Foundation


/// The provider-key flags `run` and `simulate` share. Against real APNs (and `run` against anything but
/// the simulator) a key is needed; the simulator accepts tokens of every key it is given.
public struct CredentialOptions: ParsableArguments {
    public init() {}

    @Option(name: .long, help: ArgumentHelp("Provider key file AuthKey_<KEYID>.p8 (or APNS_KEY_PATH; simulate: repeatable).", valueName: "PATH"))
    var keyPath: [String] = []

    @Option(name: .long, help: ArgumentHelp("Key id of the --key-path at the same position, 10 characters (or APNS_KEY_ID).", valueName: "ID"))
    var keyId: [String] = []

    @Option(name: .long, help: ArgumentHelp("Team id of the --key-path at the same position, 10 characters (or APNS_TEAM_ID).", valueName: "ID"))
    var teamId: [String] = []

    public func validate() throws {
        guard keyPath.count == keyId.count || keyId.isEmpty, keyPath.count == teamId.count || teamId.isEmpty else {
            throw ValidationError("--key-path, --key-id and --team-id go together: got \(keyPath.count), \(keyId.count) and \(teamId.count)")
        }
    }

    /// Every key given, with the APNS_* variables standing in for missing flags of the first.
    public var all: [Credentials] {
        let env = ProcessInfo.processInfo.environment
        if keyPath.isEmpty {
            guard let path = env["APNS_KEY_PATH"] else { return [] }
            return [Credentials(keyPath: path, keyID: keyId.first ?? env["APNS_KEY_ID"], teamID: teamId.first ?? env["APNS_TEAM_ID"])]
        }
        return keyPath.indices.map { i in
            Credentials(keyPath: keyPath[i], keyID: i < keyId.count ? keyId[i] : env["APNS_KEY_ID"],
                        teamID: i < teamId.count ? teamId[i] : env["APNS_TEAM_ID"])
        }
    }

    /// The one key a run signs with, if any (a run takes one).
    public func single() throws -> Credentials {
        let keys = all
        guard keys.count <= 1 else { throw ValidationError("a run signs with one provider key; got \(keys.count) --key-path") }
        return keys.first ?? Credentials()
    }
}
