// The bare libcurl loop: see include/curl_reference.h. Options mirror Sources/APNsEngine
// (TransferSlot.configure, CurlEngine.init, HeaderSet.init); keep them in step when the engine changes.
#define _GNU_SOURCE
#include "curl_reference.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/epoll.h>
#include <unistd.h>
#endif

#define RESPONSE_LIMIT 1024
#define LATENCY_SUB_BITS 5
#define LATENCY_BUCKETS (41 << LATENCY_SUB_BITS)

typedef struct slot {
    CURL *easy;
    struct slot *next_free;
    uint64_t started_at;
    size_t response_length;
    char response[RESPONSE_LIMIT];
} slot;

struct curlref {
    CURLM *multi;
    slot *slots;
    long slot_count;
    slot *free_list;
    struct curl_slist *headers;
    char *url;
    curlref_drive drive;
    int poll_wait_first;
    int set_url_per_push;
    long window;
    // service times of the last run, BenchSupport.LogHistogram's buckets
    uint32_t latency[LATENCY_BUCKETS];
    long latency_total;
    // epoll driving
    int epoll_fd;
    int64_t timer_deadline; // CLOCK_MONOTONIC nanoseconds; -1 = no timer
};

static uint64_t now_nanos(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void curlref_global_init(void) {
    static int done = 0;
    if (!done) {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        done = 1;
    }
}

// Keeps the first RESPONSE_LIMIT bytes of the body, as the engine's transferWriteCallback does.
static size_t write_callback(char *data, size_t size, size_t count, void *userdata) {
    size_t n = size * count;
    slot *s = userdata;
    size_t room = RESPONSE_LIMIT - s->response_length;
    if (room > 0) {
        size_t take = n < room ? n : room;
        memcpy(s->response + s->response_length, data, take);
        s->response_length += take;
    }
    return n;
}

#ifdef __linux__
// libcurl tells which sockets to watch for what; mirror it into the epoll set.
static int socket_callback(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp) {
    (void)easy;
    (void)socketp;
    curlref *ref = userp;
    if (what == CURL_POLL_REMOVE) {
        epoll_ctl(ref->epoll_fd, EPOLL_CTL_DEL, fd, NULL);
        return 0;
    }
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.data.fd = fd;
    if (what & CURL_POLL_IN) ev.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) ev.events |= EPOLLOUT;
    if (epoll_ctl(ref->epoll_fd, EPOLL_CTL_MOD, fd, &ev) != 0 && errno == ENOENT) {
        epoll_ctl(ref->epoll_fd, EPOLL_CTL_ADD, fd, &ev);
    }
    return 0;
}

// libcurl asks to be called (CURL_SOCKET_TIMEOUT) after timeout_ms; -1 cancels the timer.
static int timer_callback(CURLM *multi, long timeout_ms, void *userp) {
    (void)multi;
    curlref *ref = userp;
    ref->timer_deadline = timeout_ms < 0 ? -1 : (int64_t)(now_nanos() + (uint64_t)timeout_ms * 1000000ull);
    return 0;
}
#endif

static void set_error(char *error, size_t capacity, const char *what, const char *detail) {
    if (error && capacity > 0) snprintf(error, capacity, "%s: %s", what, detail ? detail : "failed");
}

#define EASY(opt, val)                                                               \
    do {                                                                             \
        CURLcode rc_ = curl_easy_setopt(s->easy, opt, val);                          \
        if (rc_ != CURLE_OK) {                                                       \
            set_error(error, error_capacity, "curl_easy_setopt(" #opt ")", curl_easy_strerror(rc_)); \
            goto fail;                                                               \
        }                                                                            \
    } while (0)

#define MULTI(opt, val)                                                              \
    do {                                                                             \
        CURLMcode rc_ = curl_multi_setopt(ref->multi, opt, val);                     \
        if (rc_ != CURLM_OK) {                                                       \
            set_error(error, error_capacity, "curl_multi_setopt(" #opt ")", curl_multi_strerror(rc_)); \
            goto fail;                                                               \
        }                                                                            \
    } while (0)

curlref *curlref_create(const curlref_config *c, char *error, size_t error_capacity) {
    curlref_global_init();
    curlref *ref = calloc(1, sizeof *ref);
    if (!ref) return NULL;
    ref->epoll_fd = -1;
    ref->timer_deadline = -1;
    ref->drive = c->drive;
    ref->poll_wait_first = c->poll_wait_first;
    ref->set_url_per_push = c->set_url_per_push;
    ref->window = c->connections * c->streams_per_connection;

    ref->multi = curl_multi_init();
    if (!ref->multi) {
        set_error(error, error_capacity, "curl_multi_init", NULL);
        goto fail;
    }
    // CurlEngine.init
    MULTI(CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
    MULTI(CURLMOPT_MAX_HOST_CONNECTIONS, c->connections);
    MULTI(CURLMOPT_MAX_TOTAL_CONNECTIONS, c->connections);
    MULTI(CURLMOPT_MAX_CONCURRENT_STREAMS, c->streams_per_connection);
    if (c->drive == CURLREF_DRIVE_EPOLL) {
#ifdef __linux__
        ref->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
        if (ref->epoll_fd < 0) {
            set_error(error, error_capacity, "epoll_create1", strerror(errno));
            goto fail;
        }
        MULTI(CURLMOPT_SOCKETFUNCTION, socket_callback);
        MULTI(CURLMOPT_SOCKETDATA, ref);
        MULTI(CURLMOPT_TIMERFUNCTION, timer_callback);
        MULTI(CURLMOPT_TIMERDATA, ref);
#else
        set_error(error, error_capacity, "epoll drive", "Linux only");
        goto fail;
#endif
    }

    // HeaderSet.init: the same lines in the same order.
    char line[4096];
    const char *fixed[] = {"content-type: application/json", "Accept:", "Expect:"};
    snprintf(line, sizeof line, "apns-push-type: %s", c->push_type);
    ref->headers = curl_slist_append(ref->headers, line);
    snprintf(line, sizeof line, "apns-topic: %s", c->topic);
    ref->headers = curl_slist_append(ref->headers, line);
    snprintf(line, sizeof line, "apns-priority: %ld", c->priority);
    ref->headers = curl_slist_append(ref->headers, line);
    snprintf(line, sizeof line, "authorization: %s", c->authorization);
    ref->headers = curl_slist_append(ref->headers, line);
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) ref->headers = curl_slist_append(ref->headers, fixed[i]);

    size_t url_length = strlen(c->base_url) + strlen("/3/device/") + strlen(c->device_token) + 1;
    ref->url = malloc(url_length);
    snprintf(ref->url, url_length, "%s/3/device/%s", c->base_url, c->device_token);

    ref->slot_count = ref->window;
    ref->slots = calloc((size_t)ref->slot_count, sizeof(slot));
    if (!ref->slots) goto fail;
    int https = strncmp(c->base_url, "https://", 8) == 0;
    for (long i = 0; i < ref->slot_count; i++) {
        slot *s = &ref->slots[i];
        s->easy = curl_easy_init();
        if (!s->easy) {
            set_error(error, error_capacity, "curl_easy_init", NULL);
            goto fail;
        }
        // TransferSlot.configure
        EASY(CURLOPT_HTTP_VERSION, https ? (long)CURL_HTTP_VERSION_2TLS : (long)CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE);
        EASY(CURLOPT_PIPEWAIT, 1L);
        EASY(CURLOPT_POST, 1L);
        EASY(CURLOPT_NOSIGNAL, 1L);
        EASY(CURLOPT_TIMEOUT_MS, c->push_timeout_ms);
        EASY(CURLOPT_CONNECTTIMEOUT_MS, c->connect_timeout_ms);
        EASY(CURLOPT_WRITEFUNCTION, write_callback);
        EASY(CURLOPT_WRITEDATA, s);
        EASY(CURLOPT_PRIVATE, s);
        if (c->ca_pem) {
            struct curl_blob blob = {.data = (void *)c->ca_pem, .len = strlen(c->ca_pem), .flags = CURL_BLOB_COPY};
            EASY(CURLOPT_CAINFO_BLOB, &blob);
            EASY(CURLOPT_CAPATH, (char *)NULL);
        }
        EASY(CURLOPT_SSL_VERIFYPEER, 1L);
        EASY(CURLOPT_SSL_VERIFYHOST, 2L);
        if (c->buffer_size > 0) EASY(CURLOPT_BUFFERSIZE, c->buffer_size);
        if (c->upload_buffer_size > 0) EASY(CURLOPT_UPLOAD_BUFFERSIZE, c->upload_buffer_size);
        // TransferSlot.prepare sets these per push; here they are fixed, so set once.
        EASY(CURLOPT_URL, ref->url);
        EASY(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)c->body_length);
        EASY(CURLOPT_POSTFIELDS, c->body);
        EASY(CURLOPT_HTTPHEADER, ref->headers);
        s->next_free = ref->free_list;
        ref->free_list = s;
    }
    return ref;

fail:
    curlref_destroy(ref);
    return NULL;
}

static void record_latency(curlref *ref, uint64_t micros) {
    uint64_t v = micros ? micros : 1;
    int b = 63 - __builtin_clzll(v);
    if (b > 40) b = 40;
    int shift = b > LATENCY_SUB_BITS ? b - LATENCY_SUB_BITS : 0;
    int sub = (int)((v >> shift) & 31);
    ref->latency[(b << LATENCY_SUB_BITS) | sub]++;
    ref->latency_total++;
}

uint64_t curlref_quantile(const curlref *ref, double q) {
    if (ref->latency_total == 0) return 0;
    long rank = (long)(q * (double)ref->latency_total + 0.999999999);
    if (rank < 1) rank = 1;
    long seen = 0;
    for (int i = 0; i < LATENCY_BUCKETS; i++) {
        if (!ref->latency[i]) continue;
        seen += ref->latency[i];
        if (seen >= rank) {
            int b = i >> LATENCY_SUB_BITS;
            uint64_t sub = (uint64_t)(i & 31);
            return b < LATENCY_SUB_BITS ? sub : (32 | sub) << (b - LATENCY_SUB_BITS);
        }
    }
    return 0;
}

// Takes every finished transfer off the multi handle and back to the free list.
static long drain(curlref *ref, curlref_result *r, long *in_flight) {
    long completed = 0;
    int queued = 0;
    CURLMsg *msg;
    while ((msg = curl_multi_info_read(ref->multi, &queued))) {
        if (msg->msg != CURLMSG_DONE) continue;
        CURL *easy = msg->easy_handle;
        CURLcode result = msg->data.result;
        slot *s = NULL;
        curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&s);
        long connects = 0;
        curl_easy_getinfo(easy, CURLINFO_NUM_CONNECTS, &connects);
        r->connects += connects;
        curl_multi_remove_handle(ref->multi, easy);
        if (result == CURLE_OK) {
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            if (status == 200) {
                r->delivered++;
                record_latency(ref, (now_nanos() - s->started_at) / 1000);
            } else {
                r->rejected++;
                if (!r->first_status) r->first_status = status;
            }
        } else {
            r->failed++;
            if (!r->first_curl_error) r->first_curl_error = (int)result;
        }
        s->response_length = 0;
        s->next_free = ref->free_list;
        ref->free_list = s;
        (*in_flight)--;
        completed++;
    }
    return completed;
}

int curlref_run(curlref *ref, long pushes, curlref_result *r) {
    memset(r, 0, sizeof *r);
    memset(ref->latency, 0, sizeof ref->latency);
    ref->latency_total = 0;
    uint64_t started_at = now_nanos();
    long started = 0, done = 0, in_flight = 0;
    int running = 0;
    int busy_turns = 0;
    while (done < pushes) {
        // Keep the window full.
        while (in_flight < ref->window && started < pushes && ref->free_list) {
            slot *s = ref->free_list;
            ref->free_list = s->next_free;
            if (ref->set_url_per_push) curl_easy_setopt(s->easy, CURLOPT_URL, ref->url);
            s->started_at = now_nanos();
            curl_multi_add_handle(ref->multi, s->easy);
            started++;
            in_flight++;
            if (in_flight > r->peak_in_flight) r->peak_in_flight = in_flight;
        }
        if (ref->drive == CURLREF_DRIVE_POLL) {
            // CurlEngine.run's poll drive: perform, drain, poll.
            CURLMcode mc = curl_multi_perform(ref->multi, &running);
            if (mc != CURLM_OK) return -1;
            long completed = drain(ref, r, &in_flight);
            done += completed;
            if (done >= pushes) break;
            // Refill the window before waiting: a completion frees a slot, and waiting first leaves it
            // empty until the next socket event (CurlEngine.run waits first: poll_wait_first = 1).
            if (completed > 0 && started < pushes && !ref->poll_wait_first) continue;
            // libcurl has work queued already (its timer says 0): a poll would return at once with
            // nothing ready, so perform again instead, twice in a row at most (CurlEngine does the same).
            long curl_timeout = -1;
            curl_multi_timeout(ref->multi, &curl_timeout);
            if (curl_timeout == 0) {
                r->zero_timeouts++;
                if (busy_turns < 2) {
                    busy_turns++;
                    continue;
                }
            }
            busy_turns = 0;
            curl_multi_poll(ref->multi, NULL, 0, 100, NULL);
            r->wakeups++;
        } else {
#ifdef __linux__
            int timeout_ms = 1000;
            if (ref->timer_deadline >= 0) {
                int64_t left = ref->timer_deadline - (int64_t)now_nanos();
                // Round up, so that a timer less than 1 ms away does not spin.
                timeout_ms = left <= 0 ? 0 : (int)((left + 999999) / 1000000);
                if (timeout_ms > 1000) timeout_ms = 1000;
            }
            if (timeout_ms == 0) {
                r->zero_timeouts++;
                ref->timer_deadline = -1;
                if (curl_multi_socket_action(ref->multi, CURL_SOCKET_TIMEOUT, 0, &running) != CURLM_OK) return -1;
            } else {
                struct epoll_event events[64];
                int n = epoll_wait(ref->epoll_fd, events, 64, timeout_ms);
                r->wakeups++;
                if (n < 0 && errno != EINTR) return -1;
                for (int i = 0; i < n; i++) {
                    int flags = 0;
                    if (events[i].events & EPOLLIN) flags |= CURL_CSELECT_IN;
                    if (events[i].events & EPOLLOUT) flags |= CURL_CSELECT_OUT;
                    if (events[i].events & (EPOLLERR | EPOLLHUP)) flags |= CURL_CSELECT_ERR;
                    if (curl_multi_socket_action(ref->multi, events[i].data.fd, flags, &running) != CURLM_OK) return -1;
                }
                if (ref->timer_deadline >= 0 && (int64_t)now_nanos() >= ref->timer_deadline) {
                    ref->timer_deadline = -1;
                    if (curl_multi_socket_action(ref->multi, CURL_SOCKET_TIMEOUT, 0, &running) != CURLM_OK) return -1;
                }
            }
            done += drain(ref, r, &in_flight);
#else
            return -1;
#endif
        }
    }
    r->nanos = now_nanos() - started_at;
    return 0;
}

void curlref_destroy(curlref *ref) {
    if (!ref) return;
    if (ref->slots) {
        for (long i = 0; i < ref->slot_count; i++) {
            if (!ref->slots[i].easy) continue;
            if (ref->multi) curl_multi_remove_handle(ref->multi, ref->slots[i].easy);
            curl_easy_cleanup(ref->slots[i].easy);
        }
        free(ref->slots);
    }
    if (ref->multi) curl_multi_cleanup(ref->multi);
    if (ref->headers) curl_slist_free_all(ref->headers);
    free(ref->url);
#ifdef __linux__
    if (ref->epoll_fd >= 0) close(ref->epoll_fd);
#endif
    free(ref);
}
