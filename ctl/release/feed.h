/* The release list (docs/design.md §5): GitHub's REST JSON for the configured source, cached with its
 * ETag in <store>/cache/, reduced to the mesa-<version> releases this host can install. */
#ifndef TB_FEED_H
#define TB_FEED_H

#include <stdint.h>

#include "base/config.h"
#include "base/hash.h"
#include "base/error.h"
#include "release/kind.h"

/* The release list is refused past this size. */
#define FEED_MAX_BYTES (16u << 20)

struct feed_asset {
	char *name;
	char *url;      /* browser_download_url, else the API url */
	int api;        /* url is the API url: fetch it with Accept: application/octet-stream */
	uint64_t size;
	char digest[SHA256_HEX_LEN + 1]; /* the asset's sha256 digest, "" when the feed gives none */
};

struct feed_release {
	const struct release_kind *kind; /* Mesa's or the CTS's */
	char *tag;      /* mesa-<version>, cts-<version> */
	char *version;
	int prerelease;
	struct feed_asset tarball; /* tb323fu-mesa-<version>-<arch>.tar.{gz,zst,xz} (tb323fu-cts-…) */
	struct feed_asset sums;    /* SHA256SUMS */
	struct feed_asset sig;     /* SHA256SUMS.minisig; name NULL when absent */
	char *notes;               /* the release's Markdown body, "" when none */
	char *notes_url;           /* html_url, "" when none */
	char *published_at;        /* as GitHub gives it, "" when none */
};

struct feed {
	struct feed_release *releases; /* Mesa's, newest version first */
	size_t n;
	struct feed_release *cts;      /* the CTS releases, newest first */
	size_t n_cts;
};

/* The CTS releases of f as a list of their own (it owns nothing: never feed_free it), for
 * feed_newest and feed_find. */
struct feed feed_cts_view(const struct feed *f);

/* Parses GitHub's release list: skips drafts, tags that are not mesa-<safe version> or
 * cts-<safe version>, and releases without the tarball for arch or without SHA256SUMS. TB_ENET with a sentence when
 * the text is not a release list. */
int feed_parse(const char *json, size_t len, const char *arch, struct feed *f, struct tb_error *e);
void feed_free(struct feed *f);

/* The newest release the channel offers (stable: not a pre-release; testing: any), or NULL. */
const struct feed_release *feed_newest(const struct feed *f, const char *channel);
/* The release of exactly this version, or NULL. */
const struct feed_release *feed_find(const struct feed *f, const char *version);

/* <api_url>/repos/OWNER/REPO/releases?per_page=100 */
char *feed_url(const struct config *cfg);

/* Fetches the release list into cache_dir (releases.json + releases.etag), sending the cached
 * ETag so that a 304 reuses the cached list; *from_cache tells which happened. */
int feed_refresh(const struct config *cfg, const char *cache_dir, struct feed *f, int *from_cache,
		 struct tb_error *e);
/* feed_refresh that writes nothing: the cached ETag is sent and a 304 reuses the cached
 * list, a new list is only read (update --dry-run). */
int feed_peek(const struct config *cfg, const char *cache_dir, struct feed *f, int *from_cache,
	      struct tb_error *e);
/* The list last fetched into cache_dir for this source, without the network; TB_EFAIL when
 * there is none. */
int feed_cached(const struct config *cfg, const char *cache_dir, struct feed *f, struct tb_error *e);

#endif
