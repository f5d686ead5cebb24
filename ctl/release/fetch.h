/* Transfers with libcurl (docs/design.md §5): the release list and small assets into memory, release
 * tarballs into a file resumed with Range and hashed while they arrive. Every URL passes the
 * same policy (release/urlpolicy.h): https (verified; ca_file adds a CA), http only to this
 * machine, file:// for offline mirrors. Redirects are followed here, one hop at a time, so
 * each hop passes the policy and the token never leaves api_url's host. */
#ifndef TB_FETCH_H
#define TB_FETCH_H

#include <stdint.h>

#include "base/config.h"
#include "base/hash.h"
#include "base/progress.h"
#include "base/error.h"

struct fetch_request {
	const char *url;
	const char *accept;     /* Accept header, or NULL for the GitHub JSON type */
	const char *etag;       /* sent as If-None-Match when not NULL */
	uint64_t max_bytes;     /* the answer is refused past this many bytes */
	enum tb_reason too_big; /* when it is larger: TB_R_TOO_LARGE_NETWORK (the release list,
				 * exit 5) or TB_R_TOO_LARGE (a release's files, 4) */
	const char *what;       /* what is fetched, for sentences ("the release list") */
};

struct fetch_reply {
	long status;            /* the final HTTP status (200 for file://) */
	int not_modified;       /* 304 to the ETag sent */
	char *etag;             /* the answer's ETag, or NULL */
	char *body;             /* fetch_memory: the body, NUL-terminated */
	size_t len;
};

/* GETs rq->url into memory. Any status but 200 (or 304 when an ETag was sent) is TB_ENET
 * with a sentence; rate-limit answers say until when. */
int fetch_memory(const struct config *cfg, const struct fetch_request *rq, struct fetch_reply *r,
		 struct tb_error *e);
void fetch_reply_free(struct fetch_reply *r);

struct fetch_file_result {
	char sha256[SHA256_HEX_LEN + 1]; /* of the whole file, hashed while it arrived */
	uint64_t size;
	uint64_t resumed_from;  /* bytes kept from an earlier, interrupted transfer */
};

/* Downloads rq->url into part_path, appending to what an earlier interrupted run left there
 * (Range; a part already of the full size is not fetched again, only hashed); expect_size is
 * the exact size the release gives. An interrupted transfer keeps the
 * partial file and is TB_ENET; a complete answer of the wrong size is TB_EVERIFY and removes
 * it. Progress goes to progress_bytes(p, "download", name, …). */
int fetch_file(const struct config *cfg, const struct fetch_request *rq, const char *part_path,
	       uint64_t expect_size, const struct tb_progress *p, const char *name,
	       struct fetch_file_result *out, struct tb_error *e);

#endif
