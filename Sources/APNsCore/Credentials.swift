/// A provider key given on the command line or in the environment (APNS_KEY_PATH, APNS_KEY_ID, APNS_TEAM_ID).
public struct Credentials: Sendable, Equatable {
    public var keyPath: String?
    public var keyID: String?
    public var teamID: String?

    public init(keyPath: String? = nil, keyID: String? = nil, teamID: String? = nil) {
        self.keyPath = keyPath
        self.keyID = keyID
        self.teamID = teamID
    }
}
