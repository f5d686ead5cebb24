/* `pack`: a release (tarball with MANIFEST and tree/, and SHA256SUMS) from a staged tree; the
 * tarball is written by ctl/release/packwriter.c, the same bytes from the same tree and
 * SOURCE_DATE_EPOCH (docs/design.md §19). */
#include "cli/cli.h"
#include "release/packwriter.h"
#include "store/manifest.h"
#include "store/manifest_keys.h"
#include "common/releasename.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/command.h"
#include "cmd/commands.h"

struct pack_opts {
	const char *outdir, *stage, *compress;
	const char *key[MANIFEST_KEY_COUNT]; /* the MANIFEST keys' options, by row of manifest_keys */
	int keep_links;
};

/* Why the Open Device Helper's channel as it is would not take this release (its rules:
 * docs/design.md §13), or NULL when it would. */
static const char *helper_channel_gap(const struct pack_tree *st, const char *version,
				      const char *compress, size_t manifest_len)
{
	if (strcmp(compress, "gz"))
		return "it reads only .tar.gz";
	if (st->m.n_links)
		return "it takes no links (pack without --keep-links)";
	if (st->m.n_files + 1 > 64)
		return "it takes at most 64 files";
	if (manifest_len > 16 * 1024)
		return "it takes a MANIFEST of at most 16 KiB";
	if (strlen(version) > 40 || strspn(version, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+-") != strlen(version))
		return "it takes versions of at most 40 letters, digits, '.', '+' and '-'";
	for (size_t i = 0; i < st->m.n_files; i++)
		if (strlen(st->m.files[i].path) > 200)
			return "it takes paths of at most 200 bytes";
	return NULL;
}

static enum manifest_kind packed_kind(const struct pack_opts *a)
{
	const char *kind = a->key[manifest_key_find("kind") - manifest_keys];
	return kind && !strcmp(kind, "cts") ? MANIFEST_CTS : MANIFEST_MESA;
}

/* Row k's value in the MANIFEST: its option's, else what the row writes without it for a
 * release of this kind (format=1, this machine's arch, a Mesa release's drivers), else none. */
static const char *key_value(const struct pack_opts *a, size_t k)
{
	const struct manifest_key *key = &manifest_keys[k];
	if (a->key[k] || !(key->kinds & MANIFEST_FOR(packed_kind(a))))
		return a->key[k];
	return key->pack.fallback_of ? key->pack.fallback_of() : key->pack.fallback;
}

static const char *value_named(const struct pack_opts *a, const char *name)
{
	return key_value(a, (size_t)(manifest_key_find(name) - manifest_keys));
}

/* SOURCE_DATE_EPOCH (reproducible-builds.org): the time every entry of the tarball carries;
 * unset or empty is 0. Only decimal seconds up to the year 9999 are taken; -1 otherwise. */
static int64_t source_date_epoch(void)
{
	const char *v = getenv("SOURCE_DATE_EPOCH");
	if (!v || !*v)
		return 0;
	if (strlen(v) > 12 || strspn(v, "0123456789") != strlen(v))
		return -1;
	int64_t t = (int64_t)strtoll(v, NULL, 10);
	return t <= INT64_C(253402300799) ? t : -1;
}

static int cmd_pack_check(const void *opts, struct outcome *o)
{
	const struct pack_opts *a = opts;
	int missing = !a->stage;
	for (size_t k = 0; k < MANIFEST_KEY_COUNT; k++)
		missing |= manifest_keys[k].required && !key_value(a, k);
	if (missing)
		return cli_usage(o, "usage: tb323fu-ctl mesa pack --stage DIR --version V [OPTIONS] OUTDIR");
	for (size_t k = 0; k < MANIFEST_KEY_COUNT; k++)
		if (key_value(a, k) && strchr(key_value(a, k), '\n'))
			return cli_usage(o, "%s must be one line", manifest_keys[k].pack.option);
	if (source_date_epoch() < 0)
		return cli_usage(o, "SOURCE_DATE_EPOCH must be seconds since 1970 (digits only, before the year 10000), not \"%.40s\"",
				 getenv("SOURCE_DATE_EPOCH"));
	return TB_OK;
}

/* The MANIFEST's keys, from the options, in the table's order. */
static void manifest_head(const struct pack_opts *a, struct strbuf *head)
{
	const char *value[MANIFEST_KEY_COUNT];
	for (size_t k = 0; k < MANIFEST_KEY_COUNT; k++)
		value[k] = key_value(a, k);
	manifest_keys_write(head, value);
}

/* The staged tree read and the MANIFEST text built from the options, then parsed back: pack
 * and install apply the very same rules. */
static int stage_release(const struct pack_opts *a, struct pack_tree *st, struct strbuf *text,
			 struct tb_error *e)
{
	const char *stage = a->stage;
	int rc = TB_OK;
	if (!is_directory(stage))
		rc = tb_fail(e, TB_R_USAGE, "%s is not a directory", stage);
	if (!rc)
		rc = pack_tree_walk(stage, "lib", st, e);
	if (!rc)
		rc = pack_tree_walk(stage, "share", st, e);
	if (!rc && !st->m.n_files)
		rc = tb_fail(e, TB_R_USAGE, "%s has no files under lib/ or share/", stage);
	pack_tree_sort(st);
	if (rc)
		return rc;
	manifest_head(a, text);
	for (size_t i = 0; i < st->m.n_files; i++)
		sb_appendf(text, "file %s %o %llu %s\n", st->m.files[i].sha256, st->m.files[i].mode,
			   (unsigned long long)st->m.files[i].size, st->m.files[i].path);
	for (size_t i = 0; i < st->m.n_links; i++)
		sb_appendf(text, "link %s %s\n", st->m.links[i].path, st->m.links[i].target);
	/* the staged tree or the options may not make a valid release: the parser's refusal
	 * (manifest-invalid, runpath-unsafe) with its exit code, as install would refuse it */
	struct manifest check;
	rc = manifest_parse(text->buf, text->len, &check, e);
	if (!rc)
		manifest_free(&check);
	return rc;
}

static int write_release(const struct pack_opts *a, const struct pack_tree *st,
			 const struct strbuf *text, struct outcome *o, struct tb_error *e)
{
	const char *compress = a->compress ? a->compress : "gz";
	const char *version = value_named(a, "version");
	int cts = packed_kind(a) == MANIFEST_CTS;
	int rc = mkdir_p(a->outdir, 0755, e);
	if (rc)
		return rc;
	char *name = xasprintf("%s%s-%s.tar.%s", cts ? CTS_FILE_PREFIX : MESA_FILE_PREFIX, version,
			       value_named(a, "arch"), compress);
	char *tarball = path_join(a->outdir, name);
	char hex[65];
	rc = pack_write_tarball(st, a->stage, text->buf, tarball, compress, source_date_epoch(), hex, e);
	if (!rc) {
		char *sums = path_join(a->outdir, "SHA256SUMS");
		char *line = xasprintf("%s  %s\n", hex, name);
		rc = atomic_write_file(sums, line, strlen(line), 0644, e);
		free(line);
		free(sums);
		outcome_str(o, "version", version);
		outcome_str(o, "file", tarball);
		outcome_str(o, "sha256", hex);
		outcome_int(o, "files", (int64_t)st->m.n_files);
		if (cts) {
			outcome_say(o, "packed CTS %s into %s (%zu files); sign it with `minisign -S -m %s/SHA256SUMS -t tag:%s%s`",
				    version, tarball, st->m.n_files, a->outdir, CTS_TAG_PREFIX, version);
		} else {
			const char *gap = helper_channel_gap(st, version, compress, text->len);
			outcome_bool(o, "helper_channel", !gap);
			outcome_say(o, "packed Mesa %s into %s (%zu files); sign it with `minisign -S -m %s/SHA256SUMS -t tag:%s%s`%s%s",
				    version, tarball, st->m.n_files, a->outdir, MESA_TAG_PREFIX, version,
				    gap ? "\nthe Open Device Helper's channel as it is refuses this release: " : "",
				    gap ? gap : "");
		}
	}
	free(tarball);
	free(name);
	return rc;
}

static int cmd_pack(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)c;
	(void)s;
	const struct pack_opts *a = opts;
	struct tb_error e = {0};
	struct pack_tree st = {.keep_links = a->keep_links};
	struct strbuf text = {0};
	int rc = stage_release(a, &st, &text, &e);
	if (!rc)
		rc = write_release(a, &st, &text, o, &e);
	if (rc)
		outcome_fail(o, &e);
	pack_tree_free(&st);
	sb_free(&text);
	return rc;
}

/* --stage, one option per MANIFEST key that pack takes (the rows of manifest_keys, in their
 * order), then the tarball's; CLI_END. */
static struct cli_option pack_options[1 + MANIFEST_KEY_COUNT + 3];

/* The option of a MANIFEST key's row: its value kept in key[k]. */
static struct cli_option key_option(size_t k)
{
	const struct manifest_key *key = &manifest_keys[k];
	int list = key->type == MANIFEST_DRIVERS || key->type == MANIFEST_NAME_LIST;
	return (struct cli_option){
		.name = key->pack.option,
		.arg = key->pack.arg,
		.help = key->pack.help,
		.kind = key->pack.choices ? OPT_CHOICE : list ? OPT_LIST : OPT_STRING,
		.choices = key->pack.choices,
		.offset = offsetof(struct pack_opts, key) + k * sizeof(const char *),
	};
}

/* Fills pack_options from constant tables before the program reads any command's options. */
__attribute__((constructor)) static void pack_options_fill(void)
{
	size_t n = 0;
	pack_options[n++] = (struct cli_option)CLI_STRING(
		"--stage", "DIR", struct pack_opts, stage, "the release tree (DIR/lib/…, DIR/share/…); required");
	for (size_t k = 0; k < MANIFEST_KEY_COUNT; k++)
		if (manifest_keys[k].pack.option)
			pack_options[n++] = key_option(k);
	pack_options[n++] = (struct cli_option)CLI_CHOICE("--compress", "gz|zst|xz", "gz|zst|xz", struct pack_opts,
							  compress, "the tarball's compression (default gz)");
	pack_options[n++] = (struct cli_option)CLI_FLAG(
		"--keep-links", struct pack_opts, keep_links,
		"keep the tree's symbolic links as links (old tools cannot read them)");
	pack_options[n] = (struct cli_option)CLI_END;
}

const struct cli_command pack_command = {
	.name = "pack",
	.args = "--stage DIR --version V [OPTIONS] OUTDIR",
	.summary = "make a release (tarball and SHA256SUMS) from a release tree",
	.example = "tb323fu-ctl mesa pack --stage stage --version 2026.10.06 out",
	.options = pack_options,
	.opts_size = sizeof(struct pack_opts),
	.operand = OPERAND_DIR,
	.operand_at = offsetof(struct pack_opts, outdir),
	.operand_required = 1,
	.open = OPEN_NONE,
	.check = cmd_pack_check,
	.run = cmd_pack,
};
