/* Verify and unpack one release tarball into versions/<v> (docs/design.md §4 steps 2–5). */
#ifndef TB_RELEASE_H
#define TB_RELEASE_H

#include <stdint.h>

#include "base/config.h"
#include "base/progress.h"
#include "store/store.h"
#include "base/error.h"

struct unpack_limits {
	uint64_t max_files;        /* 10,000 */
	uint64_t max_file_bytes;   /* 512 MiB */
	uint64_t max_total_bytes;  /* 2 GiB */
	uint64_t ratio_free_bytes; /* 64 MiB unpacked before the ratio applies */
	uint64_t max_ratio;        /* 100 bytes unpacked per byte read */
};
void unpack_limits_default(struct unpack_limits *l);

/* What release_unpack did with versions/<v>: new, kept (already there and whole), or
 * repaired (already there and damaged, exchanged for the new tree). */
enum release_placed { RELEASE_NEW, RELEASE_KEPT, RELEASE_REPAIRED };

struct release_request {
	const char *tarball;       /* the file on disk */
	const char *asset_name;    /* its name in SHA256SUMS (default: basename of tarball) */
	const char *expect_sha256; /* its SHA256SUMS line: hashed while it is read */
	const char *known_sha256;  /* or already hashed while downloading (no second pass) */
	uint64_t known_size;       /* the release's size of the asset, 0 when unknown */
	/* from the tag, or NULL (then taken from the MANIFEST): a name checked where it entered
	 * (version_name_ok on the command line, the release list, the file's name or the
	 * signature's tag), not checked again here */
	const char *expect_version;
	const struct unpack_limits *limits; /* NULL: defaults */
	const struct tb_progress *progress;
	enum release_placed *placed; /* out, may be NULL: what became of versions/<v> */
	const struct release_kind *kind; /* NULL: Mesa's (versions/); &release_kind_cts: cts/ */
};

/* Streams the tarball once (hashing it while reading), checks every entry and the MANIFEST,
 * runs the ELF checks, and renames versions/.<v>.tmp to versions/<v>. A version already
 * there is kept when it verifies, and replaced in one exchange when it does not (running
 * programs keep the files they opened). The store must be locked. On failure nothing is left
 * in versions/. *version_out (may be NULL) gets the version. */
int release_unpack(struct store *s, const struct release_request *r, char **version_out,
		   struct tb_error *e);

/* Checks an installed tree of kind k (versions/<v>, cts/<v>) against its MANIFEST: re-hashed
 * with hash, else every file's presence, type, mode and size. */
struct release_kind;
int release_verify_kind(const struct store *s, const struct release_kind *k, const char *version,
			int hash, struct tb_error *e);
/* Re-hashes an installed tree against its MANIFEST; TB_EVERIFY naming every damaged file. */
int release_verify_installed(const struct store *s, const char *version, struct tb_error *e);
/* The same for a version the release source does not offer: the repair it names is
 * `verify --repair V --from FILE` of its tarball, since `verify --repair` cannot fetch it. */
int release_verify_offline(const struct store *s, const char *version, struct tb_error *e);
/* The same without re-hashing: every file there with its type, mode and size, every link as
 * the MANIFEST says, nothing extra. For a tree about to become current, checked a moment ago. */
int release_check_present(const struct store *s, const char *version, struct tb_error *e);
/* The ELF checks of an installed version again (versions/<v> and its MANIFEST), against h
 * or, h NULL, this machine: what verify and doctor ask of a tree in the store.
 * r is filled as far as the checks got (zero when the MANIFEST cannot be read). */
struct elf_host;
struct elf_report;
int release_check_installed(const struct store *s, const char *version, const struct elf_host *h,
			    struct elf_report *r, struct tb_error *e);

#endif
