// Typed, non-variadic wrappers for the libcurl calls the engine makes.
// Swift cannot call C variadic functions such as curl_easy_setopt, so each argument type gets one
// wrapper. Only APNsEngine imports this module.
#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_easy_setopt_write_callback(CURL *handle, curl_write_callback callback);
/// Sets a blob option (CAINFO_BLOB); libcurl copies the bytes.
CURLcode ccurl_easy_setopt_blob(CURL *handle, CURLoption option, const void *data, size_t length);

CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value);
CURLcode ccurl_easy_getinfo_off_t(CURL *handle, CURLINFO info, curl_off_t *value);

CURLMcode ccurl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// curl_version_info(CURLVERSION_NOW): CURLVERSION_NOW is a macro Swift cannot see.
const curl_version_info_data *ccurl_version_info(void);
/// Whether the loaded libcurl was built with HTTP/2 (CURL_VERSION_HTTP2).
int ccurl_has_http2(const curl_version_info_data *info);

/// The CURLMsg fields the engine reads (the struct holds a union Swift imports awkwardly).
int ccurl_msg_is_done(const CURLMsg *msg);
CURL *ccurl_msg_easy(const CURLMsg *msg);
CURLcode ccurl_msg_result(const CURLMsg *msg);

#endif
