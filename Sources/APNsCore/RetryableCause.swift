/// Which answers the engine's retry policy may resend, by the key `engine.retries` counts a resend under:
/// the one rule the engine's policy (`RetryPolicy.decide`) and a report's check of its retries
/// (`RunReport.violations`) both read.
///
/// - A transport failure (`curl_…`, `stall`): retried with backoff.
/// - `ExpiredProviderToken` (403): resent once with a new provider token.
/// - `TooManyRequests` (429): resent after that device token's backoff.
/// - Any 5xx, and every reason whose handling is `retry`: retried with backoff.
/// - Everything else (other 4xx, 410, a timeout, a push never sent) is final.
public enum RetryableCause {
    /// Whether the policy may resend a push whose attempt got `reason`.
    public static func isRetryable(_ reason: Reason) -> Bool {
        reason == .expiredProviderToken || reason == .tooManyRequests || reason.status >= 500 || reason.handling == .retry
    }

    /// Whether `key` (a reason's name or a transport error's key, as in `engine.retries`) names a cause the
    /// policy may resend.
    public static func isRetryable(key: String) -> Bool {
        if isTransportKey(key) { return true }
        return isRetryable(Reason(rawValue: key))
    }

    /// Whether `key` is a transport error's key (libcurl's `curl_N_name`, or the stall watchdog's `stall`).
    public static func isTransportKey(_ key: String) -> Bool {
        key.hasPrefix("curl_") || key == "stall"
    }
}
