#include "release/fetch.h"
#include "release/urlpolicy.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"

#include <ctype.h>
#include <curl/curl.h>
#include "base/lazy_curl.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_REDIRECTS 10
#define GITHUB_JSON "application/vnd.github+json"

/* ---- hashing beside the transfer ----
 * The bytes of a download are hashed by a second thread while the first one receives and
 * writes, so the hash costs no time where a core is free. Two blocks: one filling, one being
 * hashed; memory stays flat. Without a thread (creation failed) it hashes inline. */

#define HASH_BLOCK (1u << 20)

struct bg_hash {
	struct sha256_stream *h;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned char *fill, *busy;
	size_t fill_len, busy_len;
	int has_busy, stop, running;
};

static void *bg_hash_main(void *arg)
{
	struct bg_hash *b = arg;
	pthread_mutex_lock(&b->mu);
	for (;;) {
		while (!b->has_busy && !b->stop)
			pthread_cond_wait(&b->cv, &b->mu);
		if (!b->has_busy)
			break;
		pthread_mutex_unlock(&b->mu);
		sha256_add(b->h, b->busy, b->busy_len);
		pthread_mutex_lock(&b->mu);
		b->has_busy = 0;
		pthread_cond_broadcast(&b->cv);
	}
	pthread_mutex_unlock(&b->mu);
	return NULL;
}

/* Takes over h (which may already hold the bytes of a partial file). */
static void bg_hash_start(struct bg_hash *b, struct sha256_stream *h)
{
	memset(b, 0, sizeof *b);
	b->h = h;
	b->fill = xmalloc(HASH_BLOCK);
	b->busy = xmalloc(HASH_BLOCK);
	pthread_mutex_init(&b->mu, NULL);
	pthread_cond_init(&b->cv, NULL);
	b->running = pthread_create(&b->thread, NULL, bg_hash_main, b) == 0;
}

static void bg_hash_hand_over(struct bg_hash *b)
{
	if (!b->running) {
		sha256_add(b->h, b->fill, b->fill_len);
		b->fill_len = 0;
		return;
	}
	pthread_mutex_lock(&b->mu);
	while (b->has_busy)
		pthread_cond_wait(&b->cv, &b->mu);
	unsigned char *tmp = b->busy;
	b->busy = b->fill;
	b->busy_len = b->fill_len;
	b->fill = tmp;
	b->fill_len = 0;
	b->has_busy = 1;
	pthread_cond_broadcast(&b->cv);
	pthread_mutex_unlock(&b->mu);
}

static void bg_hash_add(struct bg_hash *b, const void *data, size_t len)
{
	const unsigned char *p = data;
	while (len) {
		size_t n = HASH_BLOCK - b->fill_len < len ? HASH_BLOCK - b->fill_len : len;
		memcpy(b->fill + b->fill_len, p, n);
		b->fill_len += n;
		p += n;
		len -= n;
		if (b->fill_len == HASH_BLOCK)
			bg_hash_hand_over(b);
	}
}

static void bg_hash_end(struct bg_hash *b, char hex[SHA256_HEX_LEN + 1])
{
	if (b->fill_len)
		bg_hash_hand_over(b);
	if (b->running) {
		pthread_mutex_lock(&b->mu);
		b->stop = 1;
		pthread_cond_broadcast(&b->cv);
		pthread_mutex_unlock(&b->mu);
		pthread_join(b->thread, NULL);
	}
	pthread_mutex_destroy(&b->mu);
	pthread_cond_destroy(&b->cv);
	free(b->fill);
	free(b->busy);
	sha256_end(b->h, hex);
	b->h = NULL;
}

/* ---- one transfer, followed through its redirects ---- */

struct transfer {
	CURL *curl;
	const struct config *cfg;
	const struct fetch_request *rq;
	const char *url_now; /* the URL of the current hop */
	char errbuf[CURL_ERROR_SIZE];

	/* the current answer; reset by each status line */
	long status;
	char *etag;
	long rl_remaining; /* -1 when not given */
	long long rl_reset;
	long long range_start; /* from Content-Range, -1 when absent */
	int body_started;

	/* where the body goes */
	int to_file;
	struct strbuf mem;
	int fd;
	struct bg_hash hash;
	uint64_t offset;   /* bytes already in the file before this answer */
	uint64_t received; /* bytes of the file written so far (offset included) */
	uint64_t limit;
	uint64_t last_report;
	double reported_at; /* when the last progress event went out (monotonic seconds) */
	double byte_at;	    /* when the last byte arrived, or the transfer began */
	uint64_t byte_seen; /* received, as the last beat saw it */
	int range_sent;
	const struct tb_progress *progress;
	const char *name;

	int too_big;
	int write_errno;
	int bad_range;
	int resume_refused; /* the partial file cannot be continued: start over next time */
};

static void reset_answer(struct transfer *t)
{
	t->status = 0;
	free(t->etag);
	t->etag = NULL;
	t->rl_remaining = -1;
	t->rl_reset = -1;
	t->range_start = -1;
	t->body_started = 0;
}

static char *header_value(const char *line, size_t len, const char *name)
{
	size_t nl = strlen(name);
	if (len <= nl || strncasecmp(line, name, nl) || line[nl] != ':')
		return NULL;
	const char *v = line + nl + 1, *end = line + len;
	while (v < end && isspace((unsigned char)*v))
		v++;
	while (end > v && isspace((unsigned char)end[-1]))
		end--;
	return strndup(v, (size_t)(end - v));
}

/* An ETag is replayed as a header: only visible ASCII may go back (a bare CR would start
 * a header of the server's choosing). */
static int etag_ok(const char *v)
{
	if (!*v || strlen(v) > 512)
		return 0;
	for (; *v; v++)
		if ((unsigned char)*v < 0x21 || (unsigned char)*v > 0x7e)
			return 0;
	return 1;
}

static size_t on_header(char *data, size_t size, size_t n, void *ctx)
{
	struct transfer *t = ctx;
	size_t len = size * n;
	if (len >= 5 && !strncmp(data, "HTTP/", 5)) {
		reset_answer(t);
		return len;
	}
	char *v;
	if ((v = header_value(data, len, "ETag"))) {
		free(t->etag);
		t->etag = etag_ok(v) ? v : NULL;
		if (!t->etag)
			free(v);
	} else if ((v = header_value(data, len, "X-RateLimit-Remaining"))) {
		t->rl_remaining = strtol(v, NULL, 10);
		free(v);
	} else if ((v = header_value(data, len, "X-RateLimit-Reset"))) {
		t->rl_reset = strtoll(v, NULL, 10);
		free(v);
	} else if ((v = header_value(data, len, "Content-Range"))) {
		unsigned long long start;
		if (sscanf(v, "bytes %llu-", &start) == 1)
			t->range_start = (long long)start;
		free(v);
	}
	return len;
}

static long answer_status(struct transfer *t)
{
	long code = 0;
	curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &code);
	return code;
}

static int write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* The first bytes of a file answer decide: append to the partial file (206 from where it
 * ends, or a file:// range) or start over (200: the server ignored the Range). */
static int start_file_body(struct transfer *t, long code)
{
	int file = url_is_file(t->url_now);
	int append = t->range_sent && (file || code == 206);
	if (append && !file && t->range_start != (long long)t->offset) {
		t->bad_range = 1;
		return -1;
	}
	if (!append && t->offset) {
		if (ftruncate(t->fd, 0) < 0 || lseek(t->fd, 0, SEEK_SET) < 0) {
			t->write_errno = errno;
			return -1;
		}
		char hex[SHA256_HEX_LEN + 1];
		bg_hash_end(&t->hash, hex);
		bg_hash_start(&t->hash, sha256_begin());
		t->offset = t->received = 0;
	}
	return 0;
}

static size_t on_body(char *data, size_t size, size_t n, void *ctx)
{
	struct transfer *t = ctx;
	size_t len = size * n;
	long code = answer_status(t);
	/* Bodies of redirects and errors are not the file. */
	if (code != 0 && (code < 200 || code > 299))
		return len;
	if (!t->to_file) {
		if (t->mem.len + len > t->limit) {
			t->too_big = 1;
			return 0;
		}
		if (t->mem.len + len + 1 > t->mem.cap) {
			size_t cap = t->mem.cap ? t->mem.cap : 65536;
			while (cap < t->mem.len + len + 1)
				cap *= 2;
			t->mem.buf = xrealloc(t->mem.buf, cap);
			t->mem.cap = cap;
		}
		memcpy(t->mem.buf + t->mem.len, data, len);
		t->mem.len += len;
		t->mem.buf[t->mem.len] = '\0';
		return len;
	}
	if (!t->body_started) {
		t->body_started = 1;
		if (start_file_body(t, code) < 0)
			return 0;
	}
	if (t->received + len > t->limit) {
		t->too_big = 1;
		return 0;
	}
	if (write_all(t->fd, data, len) < 0) {
		t->write_errno = errno;
		return 0;
	}
	bg_hash_add(&t->hash, data, len);
	t->received += len;
	if (t->received == t->limit) {
		t->last_report = t->received;
		progress_bytes(t->progress, "download", t->name, t->received, t->limit, 0);
	}
	return len;
}

/* The CA bundle curl uses by default plus ca_file, so ca_file adds a CA instead of
 * replacing the system's. */
static int set_ca(struct transfer *t, struct strbuf *blob, struct tb_error *e)
{
	if (!t->cfg->ca_file)
		return TB_OK;
	size_t len;
	char *extra = read_small_file(t->cfg->ca_file, 4 << 20, &len);
	if (!extra)
		return tb_fail_errno(e, TB_R_USAGE, "cannot read ca_file %s; fix ca_file in the configuration",
				     t->cfg->ca_file);
	char *def = NULL;
	curl_easy_getinfo(t->curl, CURLINFO_CAINFO, &def);
	if (def) {
		char *sys = read_small_file(def, 16 << 20, NULL);
		if (sys) {
			sb_append(blob, sys);
			sb_append(blob, "\n");
			free(sys);
		}
	}
	sb_append(blob, extra);
	free(extra);
	struct curl_blob b = {.data = blob->buf, .len = blob->len, .flags = CURL_BLOB_NOCOPY};
	curl_easy_setopt(t->curl, CURLOPT_CAINFO_BLOB, &b);
	return TB_OK;
}

static char *read_token(const struct config *cfg, struct tb_error *e)
{
	char *tok = read_small_file(cfg->token_file, 4096, NULL);
	if (!tok) {
		tb_fail_errno(e, TB_R_USAGE, "cannot read token_file %s; fix token_file in the configuration",
			      cfg->token_file);
		return NULL;
	}
	char *s = tok;
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	char *clean = strndup(s, n);
	free(tok);
	for (char *p = clean; *p; p++)
		if (!isgraph((unsigned char)*p)) {
			free(clean);
			tb_fail(e, TB_R_USAGE, "token_file %s holds more than one token; keep only the token in it",
				cfg->token_file);
			return NULL;
		}
	return clean;
}

static void describe_time(long long when, char *out, size_t n)
{
	time_t t = (time_t)when;
	struct tm tm;
	if (when <= 0 || !gmtime_r(&t, &tm) || !strftime(out, n, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(out, n, "later");
}

/* Called by libcurl on every turn of the transfer: a signal stops it there. */
static int on_xferinfo(void *ctx, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
		       curl_off_t ulnow)
{
	return tb_interrupted ? 1 : 0;
}

static double monotonic_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A download's progress, on every turn of the transfer loop: the bytes really written, at most
 * four times a second while they grow and twice a second while none arrives, with the seconds
 * since the last one (docs/design.md §13). */
static void beat(struct transfer *t)
{
	if (!t->to_file || !t->progress)
		return;
	double now = monotonic_now();
	if (!t->byte_at || t->received != t->byte_seen) {
		t->byte_seen = t->received;
		t->byte_at = now;
	}
	double quiet = now - t->byte_at, since = now - t->reported_at;
	if ((t->received != t->last_report && since >= 0.25) || since >= 0.5) {
		t->last_report = t->received;
		t->reported_at = now;
		progress_bytes(t->progress, "download", t->name, t->received, t->limit,
			       quiet >= 1 ? (unsigned)quiet : 0);
	}
}

/* curl_easy_perform of the transfer's handle, waking at least four times a second (a multi
 * handle of its own, polled with a time limit), so a download reports also while nothing
 * arrives. */
static CURLcode perform_beating(struct transfer *t)
{
	CURLM *m = curl_multi_init();
	if (!m)
		return CURLE_OUT_OF_MEMORY;
	if (curl_multi_add_handle(m, t->curl) != CURLM_OK) {
		curl_multi_cleanup(m);
		return CURLE_FAILED_INIT;
	}
	CURLcode cr = CURLE_OK;
	int running = 1;
	while (running) {
		CURLMcode mc = curl_multi_perform(m, &running);
		if (mc == CURLM_OK && running)
			mc = curl_multi_poll(m, NULL, 0, 250, NULL);
		if (mc != CURLM_OK) {
			snprintf(t->errbuf, sizeof t->errbuf, "%s", curl_multi_strerror(mc));
			cr = CURLE_RECV_ERROR;
			break;
		}
		beat(t);
	}
	CURLMsg *msg;
	int left;
	while ((msg = curl_multi_info_read(m, &left)))
		if (msg->msg == CURLMSG_DONE)
			cr = msg->data.result;
	curl_multi_remove_handle(m, t->curl);
	curl_multi_cleanup(m);
	return cr;
}

static int curl_failure(struct transfer *t, CURLcode rc, const char *url, struct tb_error *e)
{
	const struct fetch_request *rq = t->rq;
	char host[256];
	url_host_for_sentence(url, host, sizeof host);
	const char *why = t->errbuf[0] ? t->errbuf : curl_easy_strerror(rc);
	if (tb_interrupted) {
		char *what = xasprintf("fetching %s%s", rq->what,
				       t->to_file ? " (the part already fetched is kept; the next run resumes it)" : "");
		int r = tb_check_interrupted(e, what);
		free(what);
		return r;
	}
	if (t->too_big)
		return tb_fail(e, rq->too_big, "%s from %s is larger than %llu bytes; refusing it", rq->what, host,
			       (unsigned long long)t->limit);
	if (t->bad_range)
		return tb_fail(e, TB_R_NETWORK, "%s answered a different range than asked for %s; run the command again",
			       host, rq->what);
	if (t->write_errno) {
		errno = t->write_errno;
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s into the cache", rq->what);
	}
	switch (rc) {
	case CURLE_OPERATION_TIMEDOUT: {
		curl_off_t connected = 0;
		curl_easy_getinfo(t->curl, CURLINFO_CONNECT_TIME_T, &connected);
		if (!connected && !t->received && !t->mem.len)
			return tb_fail(e, TB_R_NETWORK, "cannot connect to %s within %ld s; check the network connection",
				       host, t->cfg->connect_timeout);
		return tb_fail(e, TB_R_NETWORK,
			       "the transfer of %s from %s stalled (below %ld bytes/s for %ld s); run the command again, a download resumes where it stopped",
			       rq->what, host, t->cfg->stall_speed, t->cfg->stall_timeout);
	}
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
		return tb_fail(e, TB_R_NETWORK, "cannot reach %s (%s); check the network connection and api_url",
			       host, why);
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
		return tb_fail(e, TB_R_NETWORK,
			       "the TLS connection to %s cannot be trusted (%s); for a mirror of your own, add its CA with ca_file",
			       host, why);
	case CURLE_BAD_DOWNLOAD_RESUME:
	case CURLE_RANGE_ERROR:
		return tb_fail(e, TB_R_NETWORK, "%s could not resume %s where the last attempt stopped; run the command again to start it over",
			       host, rq->what);
	case CURLE_FILE_COULDNT_READ_FILE:
		return tb_fail(e, TB_R_NETWORK, "cannot read %s from the mirror (%s); check api_url", rq->what, url);
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_SEND_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return tb_fail(e, TB_R_NETWORK,
			       "the connection to %s broke off during %s (%s); run the command again, a download resumes where it stopped",
			       host, rq->what, why);
	default:
		return tb_fail(e, TB_R_NETWORK, "fetching %s from %s failed (%s); check the network connection and api_url",
			       rq->what, host, why);
	}
}

static int status_failure(struct transfer *t, const char *url, struct tb_error *e)
{
	char host[256];
	url_host_for_sentence(url, host, sizeof host);
	long s = t->status;
	if ((s == 403 || s == 429) && t->rl_remaining == 0) {
		char when[64];
		describe_time(t->rl_reset, when, sizeof when);
		return tb_fail(e, TB_R_RATE_LIMITED, "the API rate limit of %s is used up until %s; try again then, or set token_file",
			       host, when);
	}
	if (s == 416)
		return tb_fail(e, TB_R_NETWORK, "%s could not resume %s where the last attempt stopped (HTTP 416); run the command again to start it over",
			       host, t->rq->what);
	if (s == 429)
		return tb_fail(e, TB_R_RATE_LIMITED, "%s asks to slow down (HTTP 429) for %s; try again later", host, t->rq->what);
	if (s == 404)
		return tb_fail(e, TB_R_NOT_FOUND, "%s answered 404 Not Found for %s (%.300s); check source and api_url in the configuration",
			       host, t->rq->what, url);
	if (s == 401 || s == 403)
		return tb_fail(e, TB_R_NETWORK, "%s refused %s (HTTP %ld); check token_file and source in the configuration",
			       host, t->rq->what, s);
	if (s >= 500)
		return tb_fail(e, TB_R_NETWORK, "%s failed to serve %s (HTTP %ld); try again later", host, t->rq->what, s);
	return tb_fail(e, TB_R_NETWORK, "%s answered HTTP %ld for %s (%.300s); check api_url or try again later",
		       host, s, t->rq->what, url);
}

static void ensure_curl_init(void)
{
	static int done;
	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = 1;
	}
}

/* Runs the transfer, following redirects by hand. TB_OK when the final answer is 2xx (or a
 * 304 to our ETag); t->status holds it. */
static int perform(struct transfer *t, struct tb_error *e)
{
	const struct config *cfg = t->cfg;
	const struct fetch_request *rq = t->rq;
	ensure_curl_init();
	t->curl = curl_easy_init();
	if (!t->curl)
		return tb_fail(e, TB_R_FAILED, "cannot start a transfer (libcurl failed to initialise)");
	CURL *c = t->curl;
	struct strbuf ca = {0};
	char *token = NULL;
	int rc = set_ca(t, &ca, e);
	if (rc == TB_OK && cfg->token_file && !(token = read_token(cfg, e)))
		rc = e->code;

	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https,file");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "tb323fu-ctl");
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, cfg->connect_timeout);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, cfg->stall_speed);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, cfg->stall_timeout);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_BUFFERSIZE, 100L * 1024);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, t->errbuf);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, t);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, t);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_xferinfo);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	if (t->range_sent) {
		char range[48];
		snprintf(range, sizeof range, "%llu-", (unsigned long long)t->offset);
		curl_easy_setopt(c, CURLOPT_RANGE, range);
	}

	char *url = xstrdup(rq->url);
	for (int hop = 0; rc == TB_OK; hop++) {
		if (hop > MAX_REDIRECTS) {
			rc = tb_fail(e, TB_R_NETWORK, "too many redirects fetching %s from %.300s", rq->what, rq->url);
			break;
		}
		if ((rc = fetch_url_allowed(url, e)) != TB_OK)
			break;
		if (url_is_file(url) && (rc = url_local_file_allowed(cfg, url, rq->what, e)) != TB_OK)
			break;
		t->url_now = url;
		int to_api = url_same_origin(url, cfg->api_url);
		struct curl_slist *h = NULL;
		char *line = xasprintf("Accept: %s", rq->accept ? rq->accept : GITHUB_JSON);
		h = curl_slist_append(h, line);
		free(line);
		if (to_api)
			h = curl_slist_append(h, "X-GitHub-Api-Version: 2022-11-28");
		if (to_api && token) {
			line = xasprintf("Authorization: Bearer %s", token);
			h = curl_slist_append(h, line);
			free(line);
		}
		if (rq->etag && etag_ok(rq->etag)) {
			line = xasprintf("If-None-Match: %s", rq->etag);
			h = curl_slist_append(h, line);
			free(line);
		}
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
		curl_easy_setopt(c, CURLOPT_URL, url);
		t->errbuf[0] = '\0';
		reset_answer(t);
		CURLcode cr = perform_beating(t);
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
		curl_slist_free_all(h);
		t->status = answer_status(t);
		if (url_is_file(url) && t->status == 0)
			t->status = 200;
		if (cr != CURLE_OK) {
			t->resume_refused = t->range_sent &&
					    (cr == CURLE_BAD_DOWNLOAD_RESUME || cr == CURLE_RANGE_ERROR);
			rc = curl_failure(t, cr, url, e);
			break;
		}
		if (t->status >= 300 && t->status < 400 && t->status != 304) {
			char *next = NULL;
			curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &next);
			if (!next) {
				rc = tb_fail(e, TB_R_NETWORK, "%.300s redirected %s nowhere (HTTP %ld)", url, rq->what, t->status);
				break;
			}
			if (url_redirect_downgrades(url, next)) {
				rc = tb_fail(e, TB_R_URL_REFUSED, "refusing the redirect of %s from %.200s to %.200s: a redirect may not leave https or lead to local files",
					     rq->what, url, next);
				break;
			}
			free(url);
			url = xstrdup(next);
			continue;
		}
		if (t->status == 304 && rq->etag)
			break;
		if (t->status < 200 || t->status > 299) {
			t->resume_refused = t->range_sent && t->status == 416;
			rc = status_failure(t, url, e);
		}
		break;
	}
	free(url);
	if (token) {
		explicit_bzero(token, strlen(token));
		free(token);
	}
	curl_easy_cleanup(c);
	t->curl = NULL;
	sb_free(&ca);
	return rc;
}

int fetch_memory(const struct config *cfg, const struct fetch_request *rq, struct fetch_reply *r,
		 struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	struct transfer t = {.cfg = cfg, .rq = rq, .limit = rq->max_bytes, .fd = -1};
	reset_answer(&t);
	int rc = perform(&t, e);
	r->status = t.status;
	if (rc == TB_OK) {
		r->not_modified = t.status == 304;
		r->etag = t.etag;
		t.etag = NULL;
		r->body = t.mem.buf ? t.mem.buf : xstrdup("");
		r->len = t.mem.len;
		t.mem.buf = NULL;
	}
	free(t.etag);
	sb_free(&t.mem);
	return rc;
}

void fetch_reply_free(struct fetch_reply *r)
{
	free(r->etag);
	free(r->body);
	memset(r, 0, sizeof *r);
}

/* Hashes what an earlier run left in the partial file, so the whole file is hashed once. */
static int hash_existing(int fd, struct sha256_stream *h, uint64_t *size)
{
	static unsigned char buf[1 << 16];
	uint64_t total = 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		sha256_add(h, buf, (size_t)n);
		total += (uint64_t)n;
	}
	*size = total;
	return 0;
}

int fetch_file(const struct config *cfg, const struct fetch_request *rq, const char *part_path,
	       uint64_t expect_size, const struct tb_progress *p, const char *name,
	       struct fetch_file_result *out, struct tb_error *e)
{
	memset(out, 0, sizeof *out);
	/* 0600: what a server sent is nobody else's business until it is checked. */
	int fd = open(part_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot open %s", part_path);
	struct stat pst;
	if (fstat(fd, &pst) != 0 || !S_ISREG(pst.st_mode) || fchmod(fd, 0600) != 0) {
		close(fd);
		return tb_fail(e, TB_R_DAMAGED_STORE,
			       "%s is not a regular file; remove it and run the command again", part_path);
	}
	struct transfer t = {.cfg = cfg, .rq = rq, .to_file = 1, .fd = fd, .limit = expect_size,
			     .progress = p, .name = name};
	reset_answer(&t);
	struct sha256_stream *h = sha256_begin();
	uint64_t have = 0;
	char hex[SHA256_HEX_LEN + 1];
	if (hash_existing(fd, h, &have) < 0) {
		int rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", part_path);
		sha256_end(h, hex);
		close(fd);
		return rc;
	}
	if (have == expect_size && have) {
		/* Already whole (an earlier run was stopped after the last byte): nothing to fetch;
		 * the caller checks the hash as for any download, and drops it when wrong. */
		sha256_end(h, out->sha256);
		out->size = out->resumed_from = have;
		close(fd);
		progress_bytes(p, "download", name, have, expect_size, 0);
		progress_done(p, "download", name);
		return TB_OK;
	}
	if (have > expect_size) {
		/* Overlong leftovers: start over rather than trust them. */
		sha256_end(h, hex);
		h = sha256_begin();
		if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0) {
			int rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot truncate %s", part_path);
			sha256_end(h, hex);
			close(fd);
			return rc;
		}
		have = 0;
	}
	bg_hash_start(&t.hash, h);
	t.offset = t.received = t.last_report = have;
	t.range_sent = have > 0;
	out->resumed_from = have;
	if (have)
		progress_bytes(p, "download", name, have, expect_size, 0);

	int rc = perform(&t, e);
	if (rc == TB_OK && t.status == 304)
		rc = tb_fail(e, TB_R_NETWORK, "unexpected answer 304 for %s", rq->what);
	/* No fsync: a partial file damaged by a crash only fails its hash check and is fetched
	 * again, and the unpacked tree is what the store makes durable. */
	if (close(fd) < 0 && rc == TB_OK)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s", part_path);
	bg_hash_end(&t.hash, out->sha256);
	out->size = t.received;
	if (t.offset < out->resumed_from)
		out->resumed_from = 0; /* the server ignored the Range: started over */
	if (rc == TB_OK && t.received != expect_size)
		rc = tb_fail(e, TB_R_SIZE_MISMATCH, "%s has %llu bytes, the release says %llu; refusing it",
			     name, (unsigned long long)t.received, (unsigned long long)expect_size);
	if (rc == TB_OK)
		progress_done(p, "download", name);
	/* A complete but wrong answer must not be resumed, nor a partial file the server cannot
	 * continue (416): drop it. */
	if (rc == TB_EVERIFY || t.resume_refused || t.bad_range || (rc && !t.received))
		unlink(part_path); /* nor an empty one a refused URL left */
	free(t.etag);
	return rc;
}
