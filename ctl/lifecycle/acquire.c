/* One pipeline from a release (local or remote) to a checked tree in versions/. */
#include "lifecycle/acquire.h"
#include "store/layout.h"
#include "lifecycle/remember.h"
#include "release/kind.h"
#include "release/fetch.h"
#include "store/manifest.h"
#include "release/minisign.h"
#include "release/release.h"
#include "release/sums.h"
#include "base/testhook.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/host.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glob.h>
#include <sys/stat.h>

#define SIG_MAX_BYTES (64 * 1024)
/* The API url of an asset answers JSON unless asked for the bytes; a browser url ignores it. */
#define ASSET_ACCEPT "application/octet-stream"

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static const struct release_kind *kind_of(const struct acquire_local_req *q)
{
	return q->kind ? q->kind : &release_kind_mesa;
}

/* tb323fu-mesa-<version>-<arch>.tar.<ext>: the version a release file name claims, or NULL. */
static char *version_from_name(const struct release_kind *k, const char *path)
{
	const char *prefix = k->file_prefix;
	const char *base = base_name(path);
	if (strncmp(base, prefix, strlen(prefix)))
		return NULL;
	const char *v = base + strlen(prefix);
	const char *arch = strrchr(v, '-');
	const char *tar = strstr(v, ".tar.");
	if (!arch || !tar || arch > tar)
		return NULL;
	char *ver = strndup(v, (size_t)(arch - v));
	if (!version_name_ok(ver)) {
		free(ver);
		return NULL;
	}
	return ver;
}

static char *beside(const char *file, const char *name)
{
	const char *slash = strrchr(file, '/');
	if (!slash)
		return xstrdup(name);
	return xasprintf("%.*s/%s", (int)(slash - file), file, name);
}

/* Steps 1 and the SHA256SUMS line: the signature over the sums, then the tarball's line. With
 * signed_version not NULL (a tarball whose name claims no version), it gets the version the
 * signature's tag names, which the MANIFEST must then have. */
static int check_sums(const struct config *cfg, const struct release_kind *k, const char *sums_path,
		      const char *sig_path, const char *version, char **signed_version,
		      const char *asset, char expect[65], struct tb_error *e)
{
	int rc = minisign_verify_file_tag(cfg, sums_path, sig_path, k->tag_prefix, version,
					  signed_version, e);
	if (!rc)
		rc = sums_lookup(sums_path, asset, expect, e);
	return rc;
}

static int acquire_tarball(const struct config *cfg, struct store *s, const struct acquire_local_req *q,
			   const struct tb_progress *p, char **version_out, struct tb_error *e);

/* A release's directory (what stand-in and pack write) holds one tarball for this machine. */
static char *tarball_in(const struct release_kind *k, const char *dir, struct tb_error *e)
{
	char *pattern = xasprintf("%s/%s*-%s.tar.*", dir, k->file_prefix, host_arch());
	glob_t g;
	char *found = NULL;
	int n = glob(pattern, 0, NULL, &g) == 0 ? (int)g.gl_pathc : 0;
	if (n == 1)
		found = xstrdup(g.gl_pathv[0]);
	else if (n)
		tb_fail(e, TB_R_FAILED, "%s holds %d release tarballs for %s; name the one to install", dir, n, host_arch());
	else
		tb_fail(e, TB_R_NOT_FOUND_LOCAL, "%s holds no %s release tarball for %s (%sVERSION-%s.tar.gz); name the directory of a release, or the tarball itself", dir,
			k->what, host_arch(), k->file_prefix, host_arch());
	if (n)
		globfree(&g);
	free(pattern);
	return found;
}

/* The tarball to read: the file given, or the one in the directory given; a path that is not
 * there is said as such before anything else is looked for. */
static char *local_tarball(const struct acquire_local_req *q, struct tb_error *e)
{
	struct stat st;
	if (stat(q->file, &st) != 0 && errno == ENOENT) {
		tb_fail(e, TB_R_NOT_FOUND_LOCAL, "%s does not exist; pass the release tarball (%sVERSION-%s.tar.gz) or the directory that holds it with its SHA256SUMS; nothing was changed",
			q->file, kind_of(q)->file_prefix, host_arch());
		return NULL;
	}
	if (stat(q->file, &st) != 0) {
		tb_fail_errno(e, TB_R_IO_ERROR, "cannot read %s", q->file);
		return NULL;
	}
	return S_ISDIR(st.st_mode) ? tarball_in(kind_of(q), q->file, e) : xstrdup(q->file);
}

int acquire_local(const struct config *cfg, struct store *s, const struct acquire_local_req *q,
		  const struct tb_progress *p, char **version_out, struct tb_error *e)
{
	char *file = local_tarball(q, e);
	if (!file)
		return e->code;
	struct acquire_local_req given = *q;
	given.file = file;
	int rc = acquire_tarball(cfg, s, &given, p, version_out, e);
	free(file);
	return rc;
}

static int acquire_tarball(const struct config *cfg, struct store *s, const struct acquire_local_req *q,
			   const struct tb_progress *p, char **version_out, struct tb_error *e)
{
	char *sums_path = q->sums ? xstrdup(q->sums) : beside(q->file, "SHA256SUMS");
	char *sig_path = q->sig ? xstrdup(q->sig) : NULL;
	if (!sig_path) {
		char *guess = xasprintf("%s.minisig", sums_path);
		if (path_exists(guess) && (cfg->require_signature || cfg->n_public_keys))
			sig_path = guess;
		else
			free(guess);
	}
	const struct release_kind *k = kind_of(q);
	char *claimed = version_from_name(k, q->file);
	char expect[65] = "";
	int rc = TB_OK;
	if (q->expect_version && claimed && strcmp(claimed, q->expect_version))
		rc = tb_fail(e, TB_R_TAG_MISMATCH, "%s is the tarball of %s %s, not of %s %s; give %s %s's own tarball; nothing was changed",
			     q->file, k->what, claimed, k->what, q->expect_version, k->what, q->expect_version);
	else if (q->expect_version && !claimed) /* the signature's tag and the MANIFEST must name it */
		claimed = xstrdup(q->expect_version);
	if (rc)
		; /* refused by its name */
	else if (!path_exists(sums_path) && q->sums)
		rc = tb_fail(e, TB_R_SUMS_INVALID, "%s, the SHA256SUMS given with --sums, does not exist", sums_path);
	else if (!path_exists(sums_path))
		rc = tb_fail(e, TB_R_SUMS_INVALID, "no SHA256SUMS beside %s: pass the release's SHA256SUMS with --sums FILE", q->file);
	else
		rc = check_sums(cfg, k, sums_path, sig_path, claimed, claimed ? NULL : &claimed,
				base_name(q->file), expect, e);
	/* A name without ".tar." that no SHA256SUMS vouches for is not a release at all: said
	 * as such, not as a checksum problem (SHA256SUMS itself, its signature, a key file). */
	if (rc && !strstr(base_name(q->file), ".tar.")) {
		tb_error_clear(e);
		rc = tb_fail(e, TB_R_NOT_A_RELEASE,
			     "%s is not a release tarball (a %s release is %sVERSION-%s.tar.gz, .zst or .xz, with its SHA256SUMS beside it); nothing was changed: pass that tarball, or the directory that holds both",
			     q->file, k->what, k->file_prefix, host_arch());
	}
	if (!rc) {
		struct release_request req = {.tarball = q->file, .expect_sha256 = expect,
					      .expect_version = claimed, .progress = p, .placed = q->placed,
					      .kind = k};
		rc = release_unpack(s, &req, version_out, e);
	}
	free(sums_path);
	free(sig_path);
	free(claimed);
	return rc;
}

/* Fetches a small asset (SHA256SUMS, its signature) of exactly the release's size into
 * cache/<tag>/<name>: the file keeps its name for sentences and minisign -V. */
static int fetch_small_asset(const struct config *cfg, const struct store *s, const struct feed_release *r,
			     const struct feed_asset *a, uint64_t cap, char **path_out,
			     struct tb_error *e)
{
	*path_out = NULL;
	char *what = xasprintf("%s of %s", a->name, r->tag);
	struct fetch_request rq = {.url = a->url, .accept = ASSET_ACCEPT, .max_bytes = cap,
				   .too_big = TB_R_TOO_LARGE, .what = what};
	struct fetch_reply reply;
	int rc = fetch_memory(cfg, &rq, &reply, e);
	if (!rc && reply.len != a->size)
		rc = tb_fail(e, TB_R_SIZE_MISMATCH, "%s has %zu bytes, the release says %llu; refusing it", what,
			     reply.len, (unsigned long long)a->size);
	if (!rc) {
		/* cache/<tag>/ made when missing, as the layout says (a link there is refused) */
		char *rel = xasprintf(STORE_CACHE_DIR "/%s/%s", r->tag, a->name);
		*path_out = store_reach_file(s, rel, 1, e);
		rc = *path_out ? atomic_write_file(*path_out, reply.body, reply.len, 0600, e) : e->code;
		free(rel);
	}
	fetch_reply_free(&reply);
	free(what);
	return rc;
}

int acquire_remote(const struct config *cfg, struct store *s, const struct feed_release *r,
		   const struct tb_progress *p, uint64_t *resumed_from, struct tb_error *e)
{
	*resumed_from = 0;
	char *cache = store_reach_dir(s, STORE_CACHE_DIR, 1, e);
	if (!cache)
		return e->code;
	char *sums_path = NULL, *sig_path = NULL, *part = NULL;
	char expect[65] = "";
	int rc = fetch_small_asset(cfg, s, r, &r->sums, SUMS_MAX_BYTES, &sums_path, e);
	if (!rc && r->sig.name)
		rc = fetch_small_asset(cfg, s, r, &r->sig, SIG_MAX_BYTES, &sig_path, e);
	if (!rc)
		rc = check_sums(cfg, r->kind, sums_path, sig_path, r->version, NULL, r->tarball.name, expect, e);
	if (!rc && r->tarball.digest[0] && strcmp(r->tarball.digest, expect))
		rc = tb_fail(e, TB_R_DIGEST_MISMATCH, "the digest the release gives for %s differs from its SHA256SUMS; refusing it",
			     r->tarball.name);
	struct fetch_file_result got;
	if (!rc) {
		char *name = xasprintf("%s.part", r->tarball.name);
		part = path_join(cache, name);
		free(name);
		struct fetch_request rq = {.url = r->tarball.url, .accept = ASSET_ACCEPT,
					   .max_bytes = r->tarball.size, .too_big = TB_R_TOO_LARGE,
					   .what = r->tarball.name};
		rc = fetch_file(cfg, &rq, part, r->tarball.size, p, r->tarball.name, &got, e);
		*resumed_from = got.resumed_from;
	}
	if (!rc && strcmp(got.sha256, expect))
		rc = tb_fail(e, TB_R_HASH_MISMATCH, "%s does not match its SHA256SUMS (damaged or altered on the way); it was refused and not kept: download it again (%s %s); if it fails the same way again, the release itself is wrong: choose another version and tell the release's publisher",
			     r->tarball.name, r->kind->fetch, r->version);
	if (!rc && r->tarball.digest[0] && strcmp(got.sha256, r->tarball.digest))
		rc = tb_fail(e, TB_R_DIGEST_MISMATCH, "%s does not match the digest the release gives; refusing it",
			     r->tarball.name);
	if (!rc)
		testhook_pause("downloaded");
	if (!rc) {
		struct release_request req = {.tarball = part, .asset_name = r->tarball.name,
					      .known_sha256 = got.sha256, .known_size = got.size,
					      .expect_version = r->version, .progress = p, .kind = r->kind};
		rc = release_unpack(s, &req, NULL, e);
	}
	/* Only an interrupted transfer is worth resuming; anything checked or refused goes. */
	if (part && (rc == TB_OK || rc == TB_EVERIFY))
		unlink(part);
	/* What the server sent is kept only while it may still be used. */
	if (rc && sums_path)
		unlink(sums_path);
	if (rc && sig_path)
		unlink(sig_path);
	/* the store remembers a refused release with its asset, and forgets the refusal once
	 * the release came whole (docs/design.md §12) */
	if (r->kind != &release_kind_mesa)
		; /* what the store remembers is of Mesa's versions (a CTS version may share one) */
	else if (rc == TB_EVERIFY)
		remember_refused(s, r, e->reason, e->msg);
	else if (!rc)
		remember_fetched(s, r->version);
	free(part);
	free(sums_path);
	free(sig_path);
	free(cache);
	return rc;
}
