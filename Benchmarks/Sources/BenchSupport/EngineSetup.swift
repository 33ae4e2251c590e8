import APNsCore
import APNsEngine

/// The engine as the benchmarks configure it: the simulator's URL and CA, BenchDefaults' topic and type.
public enum EngineSetup {
    /// A provider token cache with a fresh key (fast mode checks no token, but the header is sent).
    /// With `key` (a validating simulator's demo key), tokens that simulator verifies.
    public static func tokens(key: SigningKey? = nil) throws -> ProviderTokenCache {
        try ProviderTokenCache(key: key ?? SigningKey.generate())
    }

    public static func configuration(url: String, caPEM: String?, connections: Int = 1, streams: Int = 100) -> EngineConfiguration {
        EngineConfiguration(
            baseURL: url, topic: BenchDefaults.topic, pushType: BenchDefaults.pushType,
            connections: connections, streamsPerConnection: streams, trustedCertificatePEM: caPEM)
    }
}
