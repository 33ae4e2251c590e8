// Typed, non-variadic wrappers for the libcurl calls the engine makes.
// Swift cannot call C variadic functions such as curl_easy_setopt, so each argument type gets one
// wrapper. Only APNsEngine imports this module.
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>
#include <stdint.h>

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_easy_setopt_write_callback(CURL *handle, curl_write_callback callback);
/// Sets a blob option (CAINFO_BLOB); libcurl copies the bytes.
CURLcode ccurl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
/// CURLINFO_ACTIVESOCKET and friends (curl_socket_t).
CURLcode ccurl_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value);
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode ccurl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value);
/// CURLMOPT_SOCKETFUNCTION and CURLMOPT_TIMERFUNCTION (the socket_action drive).
CURLMcode ccurl_multi_setopt_socket_function(CURLM *multi, curl_socket_callback callback);
CURLMcode ccurl_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback callback);

// The engine's wait, Linux only: an epoll set, a timerfd for due times finer than libcurl's
// milliseconds, an eventfd to be woken from other threads. Plain ints and flags, so that Swift does
// not handle the packed struct epoll_event.

/// One ready descriptor from ccurl_epoll_wait: its fd and CURL_CSELECT_IN/OUT/ERR bits.
typedef struct {
    int fd;
    int select;
} ccurl_ready;

/// epoll_create1(EPOLL_CLOEXEC); -1 with errno on failure, or where epoll does not exist.
int ccurl_epoll_create(void);
/// Watches `fd` for CURL_POLL_IN/OUT/INOUT `what` (adds it if new, modifies it otherwise), or stops
/// watching it for CURL_POLL_REMOVE. Returns 0 or -1 with errno.
int ccurl_epoll_watch(int epfd, int fd, int what);
/// epoll_wait with a millisecond timeout (-1 forever); fills `out` with up to `capacity` ready fds.
/// Returns their number, 0 on timeout or EINTR, -1 with errno on another failure.
int ccurl_epoll_wait(int epfd, ccurl_ready *out, int capacity, int timeout_ms);
/// The descriptor of this process's connected TCP socket with this local and peer port (the connection a
/// transfer is on: CURLINFO_LOCAL_PORT and CURLINFO_PRIMARY_PORT), found in /proc/self/fd; -1 if none.
/// For the rare moment a connection must be given up: it lists every descriptor.
int ccurl_find_tcp_socket(long local_port, long peer_port);
/// timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); -1 with errno on failure.
int ccurl_timerfd_create(void);
/// Arms the timerfd to expire once at `monotonic_nanos` (CLOCK_MONOTONIC, absolute), or disarms it
/// for 0. A time already past expires at once. Returns 0 or -1 with errno.
int ccurl_timerfd_arm(int fd, uint64_t monotonic_nanos);
/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); -1 with errno on failure.
int ccurl_eventfd_create(void);
/// Makes the eventfd readable (wakes a wait on it); safe from any thread.
void ccurl_eventfd_signal(int fd);
/// Reads a timerfd or eventfd back to unreadable (non-blocking: nothing to read is fine).
void ccurl_fd_clear(int fd);
/// Whether `fd` has something to read now (data, end of stream or an error): poll with timeout 0.
int ccurl_fd_readable(int fd);
void ccurl_fd_close(int fd);

/// curl_version_info(CURLVERSION_NOW): CURLVERSION_NOW is a macro Swift cannot see.
const curl_version_info_data *ccurl_version_info(void);
/// Whether the loaded libcurl was built with HTTP/2 (CURL_VERSION_HTTP2).
int ccurl_has_http2(const curl_version_info_data *info);

/// The CURLMsg fields the engine reads (the struct holds a union Swift imports awkwardly).
int ccurl_msg_is_done(const CURLMsg *msg);
CURL *ccurl_msg_easy(const CURLMsg *msg);
CURLcode ccurl_msg_result(const CURLMsg *msg);

#endif
