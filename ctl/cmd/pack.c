/* `pack`: a release (tarball with MANIFEST and tree/, and SHA256SUMS) from a staged tree; the
 * tarball is written by ctl/release/packwriter.c, the same bytes from the same tree and
 * SOURCE_DATE_EPOCH (docs/design.md §19). */
#include "cli/cli.h"
#include "release/packwriter.h"
#include "store/manifest.h"
#include "common/releasename.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/host.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/command.h"
#include "cmd/commands.h"

struct pack_opts {
	const char *outdir, *stage, *version, *arch, *commit, *base, *mesa_version, *drivers,
		*vulkan_lib, *vulkan_api, *vulkan_driver_id, *opencl_lib, *rusticl_enable,
		*ld_library_path, *min_glibc, *compress, *gl_lib_dir, *egl_vendor_lib, *glx_vendor_lib,
		*gbm_lib, *gl_drivers_dir, *gbm_backends_dir, *gallium_drivers, *kind, *deqp_vk,
		*opencl_cts_dir, *vk_gl_cts, *opencl_cts;
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

/* The MANIFEST's optional keys and the options that give them. */
static const struct {
	const char *option, *key;
	size_t at;
} manifest_keys[] = {
	{"--commit", "commit", offsetof(struct pack_opts, commit)},
	{"--base", "base", offsetof(struct pack_opts, base)},
	{"--mesa-version", "mesa_version", offsetof(struct pack_opts, mesa_version)},
	{"--drivers", "drivers", offsetof(struct pack_opts, drivers)},
	{"--vulkan-lib", "vulkan_lib", offsetof(struct pack_opts, vulkan_lib)},
	{"--vulkan-api", "vulkan_api", offsetof(struct pack_opts, vulkan_api)},
	{"--vulkan-driver-id", "vulkan_driver_id", offsetof(struct pack_opts, vulkan_driver_id)},
	{"--opencl-lib", "opencl_lib", offsetof(struct pack_opts, opencl_lib)},
	{"--rusticl-enable", "rusticl_enable", offsetof(struct pack_opts, rusticl_enable)},
	{"--ld-library-path", "ld_library_path", offsetof(struct pack_opts, ld_library_path)},
	{"--min-glibc", "min_glibc", offsetof(struct pack_opts, min_glibc)},
	{"--gl-lib-dir", "gl_lib_dir", offsetof(struct pack_opts, gl_lib_dir)},
	{"--egl-vendor-lib", "egl_vendor_lib", offsetof(struct pack_opts, egl_vendor_lib)},
	{"--glx-vendor-lib", "glx_vendor_lib", offsetof(struct pack_opts, glx_vendor_lib)},
	{"--gbm-lib", "gbm_lib", offsetof(struct pack_opts, gbm_lib)},
	{"--gl-drivers-dir", "gl_drivers_dir", offsetof(struct pack_opts, gl_drivers_dir)},
	{"--gbm-backends-dir", "gbm_backends_dir", offsetof(struct pack_opts, gbm_backends_dir)},
	{"--gallium-drivers", "gallium_drivers", offsetof(struct pack_opts, gallium_drivers)},
	{"--deqp-vk", "deqp_vk", offsetof(struct pack_opts, deqp_vk)},
	{"--opencl-cts-dir", "opencl_cts_dir", offsetof(struct pack_opts, opencl_cts_dir)},
	{"--vk-gl-cts", "vk_gl_cts", offsetof(struct pack_opts, vk_gl_cts)},
	{"--opencl-cts", "opencl_cts", offsetof(struct pack_opts, opencl_cts)},
};

static int packs_cts(const struct pack_opts *a)
{
	return a->kind && !strcmp(a->kind, "cts");
}

static const char *key_value(const struct pack_opts *a, size_t k)
{
	const char *v = *(const char *const *)((const char *)a + manifest_keys[k].at);
	/* drivers always written for Mesa: the helper's channel refuses a MANIFEST without it */
	return v || strcmp(manifest_keys[k].key, "drivers") || packs_cts(a) ? v : "vulkan,opencl";
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
	if (!a->stage || !a->version)
		return cli_usage(o, "usage: tb323fu-ctl mesa pack --stage DIR --version V [OPTIONS] OUTDIR");
	for (size_t k = 0; k < sizeof manifest_keys / sizeof *manifest_keys; k++)
		if (key_value(a, k) && strchr(key_value(a, k), '\n'))
			return cli_usage(o, "%s must be one line", manifest_keys[k].option);
	if (source_date_epoch() < 0)
		return cli_usage(o, "SOURCE_DATE_EPOCH must be seconds since 1970 (digits only, before the year 10000), not \"%.40s\"",
				 getenv("SOURCE_DATE_EPOCH"));
	return TB_OK;
}

/* The MANIFEST's head, from the options. */
static void manifest_head(const struct pack_opts *a, struct strbuf *head)
{
	sb_appendf(head, "format=1\nversion=%s\narch=%s\n", a->version, a->arch ? a->arch : host_arch());
	if (packs_cts(a))
		sb_appendf(head, "kind=cts\n");
	for (size_t k = 0; k < sizeof manifest_keys / sizeof *manifest_keys; k++)
		if (key_value(a, k))
			sb_appendf(head, "%s=%s\n", manifest_keys[k].key, key_value(a, k));
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
	struct manifest check;
	if (manifest_parse(text->buf, text->len, &check, e))
		return TB_EUSAGE; /* the staged tree or the options do not make a valid release */
	manifest_free(&check);
	return TB_OK;
}

static int write_release(const struct pack_opts *a, const struct pack_tree *st,
			 const struct strbuf *text, struct outcome *o, struct tb_error *e)
{
	const char *compress = a->compress ? a->compress : "gz";
	int rc = mkdir_p(a->outdir, 0755, e);
	if (rc)
		return rc;
	char *name = xasprintf("%s%s-%s.tar.%s", packs_cts(a) ? CTS_FILE_PREFIX : MESA_FILE_PREFIX,
			       a->version, a->arch ? a->arch : host_arch(), compress);
	char *tarball = path_join(a->outdir, name);
	char hex[65];
	rc = pack_write_tarball(st, a->stage, text->buf, tarball, compress, source_date_epoch(), hex, e);
	if (!rc) {
		char *sums = path_join(a->outdir, "SHA256SUMS");
		char *line = xasprintf("%s  %s\n", hex, name);
		rc = atomic_write_file(sums, line, strlen(line), 0644, e);
		free(line);
		free(sums);
		outcome_str(o, "version", a->version);
		outcome_str(o, "file", tarball);
		outcome_str(o, "sha256", hex);
		outcome_int(o, "files", (int64_t)st->m.n_files);
		if (packs_cts(a)) {
			outcome_say(o, "packed CTS %s into %s (%zu files); sign it with `minisign -S -m %s/SHA256SUMS -t tag:%s%s`",
				    a->version, tarball, st->m.n_files, a->outdir, CTS_TAG_PREFIX, a->version);
		} else {
			const char *gap = helper_channel_gap(st, a->version, compress, text->len);
			outcome_bool(o, "helper_channel", !gap);
			outcome_say(o, "packed Mesa %s into %s (%zu files); sign it with `minisign -S -m %s/SHA256SUMS -t tag:%s%s`%s%s",
				    a->version, tarball, st->m.n_files, a->outdir, MESA_TAG_PREFIX, a->version,
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

#define PACK(name, arg, field, help) CLI_STRING(name, arg, struct pack_opts, field, help)
static const struct cli_option pack_options[] = {
	PACK("--stage", "DIR", stage, "the release tree (DIR/lib/…, DIR/share/…); required"),
	PACK("--version", "V", version, "the release's version, like 2026.10.06; required"),
	PACK("--arch", "A", arch, "its architecture (default: this machine's)"),
	PACK("--commit", "C", commit, "the port's Mesa commit"),
	PACK("--base", "B", base, "the upstream Mesa commit it is based on"),
	PACK("--mesa-version", "M", mesa_version, "Mesa's own version, like 26.3.0-devel"),
	CLI_LIST("--drivers", "LIST", struct pack_opts, drivers, "vulkan,opencl,gl (default vulkan,opencl)"),
	PACK("--vulkan-lib", "PATH", vulkan_lib, "the Vulkan driver in the tree (lib/libvulkan_freedreno.so)"),
	PACK("--vulkan-api", "X.Y.Z", vulkan_api, "the api_version of the ICD file"),
	PACK("--vulkan-driver-id", "N", vulkan_driver_id, "the VkDriverId the smoke test expects"),
	PACK("--opencl-lib", "PATH", opencl_lib, "the OpenCL driver in the tree (lib/libRusticlOpenCL.so.1)"),
	PACK("--rusticl-enable", "DRIVER", rusticl_enable, "RUSTICL_ENABLE's value (freedreno)"),
	PACK("--ld-library-path", "lib", ld_library_path, "the release needs LD_LIBRARY_PATH=its lib/"),
	PACK("--min-glibc", "X.Y", min_glibc, "the glibc the release needs at least"),
	PACK("--gl-lib-dir", "PATH", gl_lib_dir, "GL's folder, found by soname (lib/gl)"),
	PACK("--egl-vendor-lib", "PATH", egl_vendor_lib, "glvnd's EGL vendor library (lib/gl/libEGL_mesa.so.0)"),
	PACK("--glx-vendor-lib", "PATH", glx_vendor_lib, "glvnd's GLX vendor library, when there is one"),
	PACK("--gbm-lib", "PATH", gbm_lib, "GBM (lib/gl/libgbm.so.1)"),
	PACK("--gl-drivers-dir", "PATH", gl_drivers_dir, "the DRI drivers' folder (lib/gl/dri)"),
	PACK("--gbm-backends-dir", "PATH", gbm_backends_dir, "GBM's backends' folder, when there is one"),
	PACK("--gallium-drivers", "LIST", gallium_drivers, "the gallium drivers built, hardware first (freedreno,zink)"),
	CLI_CHOICE("--kind", "mesa|cts", "mesa|cts", struct pack_opts, kind,
		   "what the release carries: Mesa's drivers (default) or the CTS's binaries"),
	PACK("--deqp-vk", "PATH", deqp_vk, "CTS: dEQP-VK's binary in the tree (lib/deqp-vk/deqp-vk)"),
	PACK("--opencl-cts-dir", "PATH", opencl_cts_dir, "CTS: OpenCL-CTS's folder (lib/opencl-cts)"),
	PACK("--vk-gl-cts", "TAG", vk_gl_cts, "CTS: the VK-GL-CTS tag it was built from"),
	PACK("--opencl-cts", "TAG", opencl_cts, "CTS: the OpenCL-CTS tag it was built from"),
	CLI_CHOICE("--compress", "gz|zst|xz", "gz|zst|xz", struct pack_opts, compress,
		   "the tarball's compression (default gz)"),
	CLI_FLAG("--keep-links", struct pack_opts, keep_links,
		 "keep the tree's symbolic links as links (old tools cannot read them)"),
	CLI_END,
};

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
