/* The URL policy: what may be fetched, followed, and sent the token (urlpolicy.h). URLs are
 * split by libcurl's own parser, the one the transfer uses. */
#include "release/urlpolicy.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include "base/lazy_curl.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/alloc.h"

struct url_parts {
	char *scheme, *host, *port;
};

static void url_parts_free(struct url_parts *u)
{
	curl_free(u->scheme);
	curl_free(u->host);
	curl_free(u->port);
	memset(u, 0, sizeof *u);
}

static int url_split(const char *url, struct url_parts *out)
{
	memset(out, 0, sizeof *out);
	CURLU *u = curl_url();
	if (!u)
		return -1;
	int bad = curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
		  curl_url_get(u, CURLUPART_SCHEME, &out->scheme, 0) != CURLUE_OK;
	if (!bad && strcasecmp(out->scheme, "file") != 0)
		bad = curl_url_get(u, CURLUPART_HOST, &out->host, 0) != CURLUE_OK ||
		      curl_url_get(u, CURLUPART_PORT, &out->port, CURLU_DEFAULT_PORT) != CURLUE_OK;
	curl_url_cleanup(u);
	if (bad)
		url_parts_free(out);
	return bad ? -1 : 0;
}

int host_is_loopback(const char *host)
{
	if (!strcasecmp(host, "localhost") || !strcasecmp(host, "localhost."))
		return 1;
	if (!strcmp(host, "[::1]") || !strcmp(host, "::1"))
		return 1;
	struct in_addr a;
	if (inet_pton(AF_INET, host, &a) == 1)
		return (ntohl(a.s_addr) >> 24) == 127;
	return 0;
}

int fetch_url_allowed(const char *url, struct tb_error *e)
{
	struct url_parts u;
	if (url_split(url, &u) < 0)
		return tb_fail(e, TB_R_URL_REFUSED, "cannot fetch \"%.200s\": not a valid URL", url);
	int rc = TB_OK;
	if (!strcasecmp(u.scheme, "http")) {
		if (!host_is_loopback(u.host))
			rc = tb_fail(e, TB_R_URL_REFUSED,
				     "refusing to fetch %.200s: plain http is only allowed to this machine (127.0.0.1, ::1, localhost); use https",
				     url);
	} else if (strcasecmp(u.scheme, "https") && strcasecmp(u.scheme, "file")) {
		rc = tb_fail(e, TB_R_URL_REFUSED, "refusing to fetch %.200s: only https, http to this machine and file:// are allowed",
			     url);
	}
	url_parts_free(&u);
	return rc;
}

/* Same scheme, host and port: the token may go there. */
int url_same_origin(const char *a, const char *b)
{
	struct url_parts ua, ub;
	if (url_split(a, &ua) < 0)
		return 0;
	if (url_split(b, &ub) < 0) {
		url_parts_free(&ua);
		return 0;
	}
	int same = ua.host && ub.host && !strcasecmp(ua.scheme, ub.scheme) &&
		   !strcasecmp(ua.host, ub.host) && !strcmp(ua.port, ub.port);
	url_parts_free(&ua);
	url_parts_free(&ub);
	return same;
}

int url_is_file(const char *url)
{
	return !strncasecmp(url, "file:", 5);
}

/* A redirect keeps https once there, and only a file:// URL leads to local files: a server
 * must not send us to this machine's files or, from https, to plain http. */
int url_redirect_downgrades(const char *from, const char *to)
{
	if (url_is_file(to))
		return !url_is_file(from);
	return !strncasecmp(from, "https:", 6) && strncasecmp(to, "https:", 6);
}

/* The path of a file:// URL (percent-decoded), or NULL. */
char *url_file_path(const char *url)
{
	CURLU *u = curl_url();
	char *path = NULL, *out = NULL;
	if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PATH, &path, CURLU_URLDECODE) == CURLUE_OK && path)
		out = xstrdup(path);
	curl_free(path);
	curl_url_cleanup(u);
	return out;
}

/* A file:// URL is read only when api_url is itself a file:// mirror, and only a regular file
 * inside the mirror's directory: a release list from the network must not make us read this
 * machine's files (a root-only file, a FIFO that never ends, /dev/zero). */
int url_local_file_allowed(const struct config *cfg, const char *url, const char *what,
			   struct tb_error *e)
{
	if (!cfg->api_url || !url_is_file(cfg->api_url))
		return tb_fail(e, TB_R_NETWORK,
			       "refusing to read %s from %.200s: only a release list from a file:// mirror may name local files",
			       what, url);
	char *want = url_file_path(url), *root = url_file_path(cfg->api_url);
	char *real = want ? realpath(want, NULL) : NULL;
	char *real_root = root ? realpath(root, NULL) : NULL;
	int rc = TB_OK;
	struct stat st;
	if (!real || !real_root) {
		rc = tb_fail(e, TB_R_NETWORK, "cannot read %s from the mirror (%.300s): %s; check api_url",
			     what, url, strerror(errno));
	} else {
		size_t n = strlen(real_root);
		int inside = !strncmp(real, real_root, n) && (real[n] == '/' || !strcmp(real_root, "/"));
		if (!inside)
			rc = tb_fail(e, TB_R_NETWORK,
				     "refusing to read %s from %.300s: it lies outside the mirror's directory %s",
				     what, url, real_root);
		else if (stat(real, &st) != 0 || !S_ISREG(st.st_mode))
			rc = tb_fail(e, TB_R_NETWORK,
				     "refusing to read %s from %.300s: it is not a regular file", what, url);
	}
	free(real);
	free(real_root);
	free(want);
	free(root);
	return rc;
}

/* The host of a URL for sentences ("api.github.com", "this machine's files"). */
void url_host_for_sentence(const char *url, char *out, size_t n)
{
	struct url_parts u;
	if (url_split(url, &u) < 0 || !u.host)
		snprintf(out, n, "%s", url_is_file(url) ? "the local mirror" : "the server");
	else
		snprintf(out, n, "%s", u.host);
	url_parts_free(&u);
}
