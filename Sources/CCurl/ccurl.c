#define _GNU_SOURCE
#include "ccurl.h"

#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode ccurl_easy_setopt_write_callback(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode ccurl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length) {
    struct curl_blob blob;
    blob.data = (void *)data;
    blob.len = length;
    blob.flags = CURL_BLOB_COPY;
    return curl_easy_setopt(handle, option, &blob);
}

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_easy_getinfo_socket(CURL *handle, CURLINFO info, curl_socket_t *value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl_easy_getinfo(handle, info, value);
}

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

CURLMcode ccurl_multi_setopt_pointer(CURLM *multi, CURLMoption option, void *value) {
    return curl_multi_setopt(multi, option, value);
}
CURLMcode ccurl_multi_setopt_socket_function(CURLM *multi, curl_socket_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, callback);
}
CURLMcode ccurl_multi_setopt_timer_function(CURLM *multi, curl_multi_timer_callback callback) {
    return curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, callback);
}

#ifdef __linux__
int ccurl_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int ccurl_epoll_watch(int epfd, int fd, int what) {
    if (what == CURL_POLL_REMOVE) {
        // The socket may be closed already (libcurl tells after closing); then epoll dropped it itself.
        int rc = epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
        return rc == 0 || errno == EBADF || errno == ENOENT ? 0 : -1;
    }
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.data.fd = fd;
    if (what & CURL_POLL_IN) ev.events |= EPOLLIN;
    if (what & CURL_POLL_OUT) ev.events |= EPOLLOUT;
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev) == 0) return 0;
    if (errno != ENOENT) return -1;
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

int ccurl_epoll_wait(int epfd, ccurl_ready *out, int capacity, int timeout_ms) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int n = epoll_wait(epfd, events, capacity, timeout_ms);
    if (n < 0) return errno == EINTR ? 0 : -1;
    for (int i = 0; i < n; i++) {
        int select = 0;
        if (events[i].events & EPOLLIN) select |= CURL_CSELECT_IN;
        if (events[i].events & EPOLLOUT) select |= CURL_CSELECT_OUT;
        if (events[i].events & (EPOLLERR | EPOLLHUP)) select |= CURL_CSELECT_ERR;
        out[i].fd = events[i].data.fd;
        out[i].select = select;
    }
    return n;
}

int ccurl_timerfd_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

int ccurl_timerfd_arm(int fd, uint64_t monotonic_nanos) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    // it_value 0 disarms; an absolute time in the past (but not 0) expires at once.
    spec.it_value.tv_sec = (time_t)(monotonic_nanos / 1000000000ull);
    spec.it_value.tv_nsec = (long)(monotonic_nanos % 1000000000ull);
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &spec, NULL);
}

int ccurl_eventfd_create(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

void ccurl_eventfd_signal(int fd) {
    uint64_t one = 1;
    ssize_t rc = write(fd, &one, sizeof one);
    (void)rc;  // EAGAIN: the counter is full, so it is readable already.
}
#else
int ccurl_epoll_create(void) { errno = ENOSYS; return -1; }
int ccurl_epoll_watch(int epfd, int fd, int what) { (void)epfd; (void)fd; (void)what; errno = ENOSYS; return -1; }
int ccurl_epoll_wait(int epfd, ccurl_ready *out, int capacity, int timeout_ms) { (void)epfd; (void)out; (void)capacity; (void)timeout_ms; errno = ENOSYS; return -1; }
int ccurl_timerfd_create(void) { errno = ENOSYS; return -1; }
int ccurl_timerfd_arm(int fd, uint64_t monotonic_nanos) { (void)fd; (void)monotonic_nanos; errno = ENOSYS; return -1; }
int ccurl_eventfd_create(void) { errno = ENOSYS; return -1; }
void ccurl_eventfd_signal(int fd) { (void)fd; }
#endif

void ccurl_fd_clear(int fd) {
    uint64_t count;
    ssize_t rc = read(fd, &count, sizeof count);
    (void)rc;
}
int ccurl_fd_readable(int fd) {
    struct pollfd p = { .fd = fd, .events = POLLIN, .revents = 0 };
    return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR)) != 0;
}
void ccurl_fd_close(int fd) {
    if (fd >= 0) close(fd);
}

const curl_version_info_data *ccurl_version_info(void) {
    return curl_version_info(CURLVERSION_NOW);
}
int ccurl_has_http2(const curl_version_info_data *info) {
    return (info->features & CURL_VERSION_HTTP2) != 0;
}

int ccurl_msg_is_done(const CURLMsg *msg) { return msg->msg == CURLMSG_DONE; }
CURL *ccurl_msg_easy(const CURLMsg *msg) { return msg->easy_handle; }
CURLcode ccurl_msg_result(const CURLMsg *msg) { return msg->data.result; }

/* The port of an IPv4 or IPv6 socket address; -1 for another family. */
static int ccurl_port_of(const struct sockaddr_storage *a) {
    if (a->ss_family == AF_INET) return ntohs(((const struct sockaddr_in *)a)->sin_port);
    if (a->ss_family == AF_INET6) return ntohs(((const struct sockaddr_in6 *)a)->sin6_port);
    return -1;
}

int ccurl_find_tcp_socket(long local_port, long peer_port) {
    DIR *dir = opendir("/proc/self/fd");
    if (!dir) return -1;
    int found = -1, own = dirfd(dir);
    struct dirent *e;
    while (found < 0 && (e = readdir(dir)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
        int fd = atoi(e->d_name);
        if (fd == own) continue;
        struct sockaddr_storage local, peer;
        socklen_t ll = sizeof local, pl = sizeof peer;
        if (getsockname(fd, (struct sockaddr *)&local, &ll) != 0 || getpeername(fd, (struct sockaddr *)&peer, &pl) != 0) continue;
        if (ccurl_port_of(&local) == local_port && ccurl_port_of(&peer) == peer_port) found = fd;
    }
    closedir(dir);
    return found;
}
