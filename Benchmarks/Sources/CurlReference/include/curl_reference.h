// A bare libcurl multi loop that POSTs one fixed push over and over: the transport's ceiling for the
// engine. It sets the same curl options as APNsEngine (TransferSlot.configure, CurlEngine.init,
// HeaderSet) and does nothing else per push: no template, no accounting, no URL or body copy. A pool of
// easy handles is reused; the window (connections x streams) is kept full until `pushes` have completed.
//
// Two ways to drive the multi handle:
// - CURLREF_DRIVE_POLL: curl_multi_perform + curl_multi_poll, CurlEngine's default drive (CurlDrive.poll);
// - CURLREF_DRIVE_EPOLL: curl_multi_socket_action with an epoll set, fed by libcurl's socket and timer
//   callbacks (Linux only), as CurlEngine's CurlDrive.socketAction.
#ifndef CURL_REFERENCE_H
#define CURL_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    CURLREF_DRIVE_POLL = 0,
    CURLREF_DRIVE_EPOLL = 1,
} curlref_drive;

typedef struct {
    /// "https://host:port" (TLS, ALPN h2) or "http://host:port" (h2c prior knowledge), no trailing slash.
    const char *base_url;
    /// PEM of the one CA to trust (CURLOPT_CAINFO_BLOB); NULL uses the system's trust store.
    const char *ca_pem;
    const char *topic;
    const char *push_type;
    /// The apns-priority value, e.g. 10.
    long priority;
    /// "bearer <jwt>".
    const char *authorization;
    /// Hex device token put in the path.
    const char *device_token;
    const void *body;
    size_t body_length;
    long connections;
    long streams_per_connection;
    long push_timeout_ms;
    long connect_timeout_ms;
    curlref_drive drive;
    /// CURLOPT_BUFFERSIZE (receive buffer); 0 leaves libcurl's default.
    long buffer_size;
    /// CURLOPT_UPLOAD_BUFFERSIZE; 0 leaves libcurl's default.
    long upload_buffer_size;
    /// Poll drive only: 1 waits in curl_multi_poll right after taking completions off, before the freed
    /// slots are refilled, as CurlEngine.run does today; 0 (the reference) refills first and waits only
    /// when nothing completed.
    int poll_wait_first;
    /// 1 sets CURLOPT_URL before every transfer, as TransferSlot.prepare does (each push has its own
    /// token, so its own path); 0 (the reference) sets it once.
    int set_url_per_push;
} curlref_config;

typedef struct {
    /// Pushes answered 200.
    long delivered;
    /// Pushes answered with another status.
    long rejected;
    /// Pushes that ended with a CURLcode other than CURLE_OK.
    long failed;
    /// The first failure's CURLcode (0 if none) and HTTP status of the first rejection (0 if none).
    int first_curl_error;
    long first_status;
    /// New connections libcurl opened during the run (CURLINFO_NUM_CONNECTS summed).
    long connects;
    /// Most transfers in flight at once.
    long peak_in_flight;
    /// Wall time of the run in nanoseconds (CLOCK_MONOTONIC).
    uint64_t nanos;
    /// Returns from the wait (curl_multi_poll or epoll_wait): the loop's wake-ups.
    long wakeups;
    /// Waits entered while libcurl's own timer (curl_multi_timeout, or the timer callback) said 0 ms:
    /// libcurl had work queued already (a stream's buffered data, a transfer just added).
    long zero_timeouts;
} curlref_result;

typedef struct curlref curlref;

/// Sets up the multi handle and `connections x streams_per_connection` easy handles. The strings and the
/// body are copied or must outlive the handle (the body: it is not copied, as in the engine). Returns NULL
/// and writes a message to `error` (if not NULL) on failure.
curlref *curlref_create(const curlref_config *config, char *error, size_t error_capacity);

/// Sends `pushes` pushes, keeping the window full, and returns when all have completed. May be called
/// again: the multi handle keeps its connections between runs. Returns 0, or -1 on a multi-level error.
int curlref_run(curlref *ref, long pushes, curlref_result *result);

/// The service time (added to the multi handle -> completed, 200s only) at quantile `q` (0..1) of the
/// last run, in microseconds: the lower bound of a bucket about 3 % wide (BenchSupport.LogHistogram's).
uint64_t curlref_quantile(const curlref *ref, double q);

void curlref_destroy(curlref *ref);

/// Calls curl_global_init once (the engine does the same).
void curlref_global_init(void);

#ifdef __cplusplus
}
#endif

#endif
