/* libcurl's functions this tool calls, loaded on the first call (ctl/base/lazylib.h).
 * Include after <curl/curl.h>; its type-checking wrappers of setopt and getinfo give way
 * to the plain declarations. */
#ifndef TB_LAZY_CURL_H
#define TB_LAZY_CURL_H

#include <curl/curl.h>

#include "base/lazylib.h"

#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_global_init LAZY_CALL(lazy_libcurl, curl_global_init)
#define curl_easy_init LAZY_CALL(lazy_libcurl, curl_easy_init)
#define curl_easy_setopt LAZY_CALL(lazy_libcurl, curl_easy_setopt)
#define curl_easy_getinfo LAZY_CALL(lazy_libcurl, curl_easy_getinfo)
#define curl_easy_perform LAZY_CALL(lazy_libcurl, curl_easy_perform)
#define curl_easy_cleanup LAZY_CALL(lazy_libcurl, curl_easy_cleanup)
#define curl_easy_strerror LAZY_CALL(lazy_libcurl, curl_easy_strerror)
#define curl_multi_init LAZY_CALL(lazy_libcurl, curl_multi_init)
#define curl_multi_add_handle LAZY_CALL(lazy_libcurl, curl_multi_add_handle)
#define curl_multi_perform LAZY_CALL(lazy_libcurl, curl_multi_perform)
#define curl_multi_poll LAZY_CALL(lazy_libcurl, curl_multi_poll)
#define curl_multi_info_read LAZY_CALL(lazy_libcurl, curl_multi_info_read)
#define curl_multi_remove_handle LAZY_CALL(lazy_libcurl, curl_multi_remove_handle)
#define curl_multi_cleanup LAZY_CALL(lazy_libcurl, curl_multi_cleanup)
#define curl_multi_strerror LAZY_CALL(lazy_libcurl, curl_multi_strerror)
#define curl_slist_append LAZY_CALL(lazy_libcurl, curl_slist_append)
#define curl_slist_free_all LAZY_CALL(lazy_libcurl, curl_slist_free_all)
#define curl_free LAZY_CALL(lazy_libcurl, curl_free)
#define curl_url LAZY_CALL(lazy_libcurl, curl_url)
#define curl_url_set LAZY_CALL(lazy_libcurl, curl_url_set)
#define curl_url_get LAZY_CALL(lazy_libcurl, curl_url_get)
#define curl_url_cleanup LAZY_CALL(lazy_libcurl, curl_url_cleanup)

#endif
