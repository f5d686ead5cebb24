/* The MANIFEST's key table walked row by row: every row reads a value of its type and refuses
 * one it does not take (naming the key, with its reason), a MANIFEST of every key of a kind
 * parses, is written again the same bytes and parses again, and pack's options are the
 * table's rows. Defaults are the rows' own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/manifest.h"
#include "store/manifest_keys.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "cli/command.h"
#include "cmd/commands.h"

#define SHA_A "a3f1c2d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"

/* A value of k's type for a release of kind: one the row takes alone, and with the others of
 * the same kind a whole release (GL's libraries in GL's folder, glvnd's GLX one so named). */
static const char *sample(const struct manifest_key *k, enum manifest_kind kind)
{
	static const char *const gl[][2] = {
		{"gl_lib_dir", "lib/gl"},
		{"egl_vendor_lib", "lib/gl/libEGL_test.so.0"},
		{"glx_vendor_lib", "lib/gl/libGLX_test.so.0"},
		{"gbm_lib", "lib/gl/libgbm.so.1"},
		{"gl_drivers_dir", "lib/gl/dri"},
		{"gbm_backends_dir", "lib/gl/gbm"},
	};
	for (size_t i = 0; i < sizeof gl / sizeof *gl; i++)
		if (!strcmp(k->name, gl[i][0]))
			return gl[i][1];
	static char path[64];
	switch (k->type) {
	case MANIFEST_FORMAT:
		return "1";
	case MANIFEST_KIND:
		return kind == MANIFEST_CTS ? "cts" : "mesa";
	case MANIFEST_TEXT:
		return "a line of text";
	case MANIFEST_VERSION:
		return "2026.10.06";
	case MANIFEST_WORD:
		return "w1";
	case MANIFEST_NUMBER:
		return "18";
	case MANIFEST_LIB_PATH:
		snprintf(path, sizeof path, "lib/%s", k->name);
		return path;
	case MANIFEST_DRIVERS:
		return "vulkan,opencl,gl";
	case MANIFEST_NAME_LIST:
		return "freedreno";
	case MANIFEST_LIB_ITSELF:
		return "lib";
	}
	return NULL;
}

/* A folder key ("…_dir") names a folder that holds a file; any other path key names a file. */
static void add_entries(struct strbuf *sb, const struct manifest_key *k, const char *v)
{
	if (k->type != MANIFEST_LIB_PATH)
		return;
	size_t n = strlen(k->name);
	if (n > 4 && !strcmp(k->name + n - 4, "_dir"))
		sb_appendf(sb, "file " SHA_A " 755 1 %s/entry\n", v);
	else
		sb_appendf(sb, "file " SHA_A " 755 1 %s\n", v);
}

static void test_rows_are_named_once(void **state)
{
	(void)state;
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		assert_non_null(k->name);
		assert_int_equal(strspn(k->name, "abcdefghijklmnopqrstuvwxyz_"), strlen(k->name));
		assert_ptr_equal(manifest_key_find(k->name), k);
		assert_true(k->kinds && !(k->kinds & ~MANIFEST_FOR_ALL));
		assert_true(k->at < sizeof(struct manifest));
		for (size_t j = 0; j < i; j++)
			assert_true(manifest_keys[j].at != k->at);
	}
	assert_null(manifest_key_find("future_key"));
}

/* Every row alone: its sample read, present and given back as written; a value of no type
 * and one longer than MANIFEST_VALUE_MAX refused, naming the key. */
static void test_each_row_reads_and_refuses(void **state)
{
	(void)state;
	char *too_long = xmalloc(MANIFEST_VALUE_MAX + 2);
	memset(too_long, 'a', MANIFEST_VALUE_MAX + 1);
	too_long[MANIFEST_VALUE_MAX + 1] = '\0';
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		enum manifest_kind kind = k->kinds & MANIFEST_FOR_MESA ? MANIFEST_MESA : MANIFEST_CTS;
		if (k->type == MANIFEST_KIND)
			kind = MANIFEST_CTS; /* mesa is the kind of a MANIFEST without the line */
		struct manifest m = {.vulkan_driver_id = -1};
		struct tb_error e = {0};
		const char *v = sample(k, kind);
		assert_int_equal(manifest_key_read(&m, k, v, 3, &e), TB_OK);
		assert_true(manifest_key_present(&m, k));
		char number[MANIFEST_NUMBER_TEXT];
		assert_string_equal(manifest_key_text(&m, k, number), v);
		manifest_free(&m);

		tb_error_clear(&e);
		struct manifest bad = {.vulkan_driver_id = -1};
		int refused = manifest_key_read(&bad, k, "/x y", 3, &e);
		if (k->type == MANIFEST_TEXT || k->type == MANIFEST_DRIVERS) {
			assert_int_equal(refused, TB_OK); /* any line, any names */
		} else {
			assert_int_equal(refused, TB_EVERIFY);
			assert_string_equal(tb_error_reason(&e), k->type == MANIFEST_LIB_ITSELF ? "runpath-unsafe"
												 : "manifest-invalid");
			assert_non_null(strstr(e.msg, k->name));
		}
		manifest_free(&bad);

		tb_error_clear(&e);
		struct manifest long_one = {.vulkan_driver_id = -1};
		assert_int_equal(manifest_key_read(&long_one, k, too_long, 3, &e), TB_EVERIFY);
		assert_string_equal(tb_error_reason(&e), "manifest-invalid");
		char *said = xasprintf("MANIFEST line 3: the value of %s is %d bytes long", k->name,
				       MANIFEST_VALUE_MAX + 1);
		assert_non_null(strstr(e.msg, said));
		free(said);
		manifest_free(&long_one);
	}
	free(too_long);
}

/* A MANIFEST of every key of kind (the table's writer, then the files the paths name):
 * parsed, written again by manifest_format the same bytes, and parsed again. */
static void round_trip(enum manifest_kind kind)
{
	const char *value[MANIFEST_KEY_COUNT];
	struct strbuf entries = {0};
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		value[i] = k->kinds & MANIFEST_FOR(kind) ? xstrdup(sample(k, kind)) : NULL;
		if (value[i])
			add_entries(&entries, k, value[i]);
	}
	struct strbuf text = {0};
	manifest_keys_write(&text, value);
	sb_append(&text, entries.buf);
	struct manifest m, again;
	struct tb_error e = {0};
	if (manifest_parse(text.buf, text.len, &m, &e) != TB_OK)
		fail_msg("%s\n%s", e.msg, text.buf);
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++)
		assert_int_equal(manifest_key_present(&m, &manifest_keys[i]),
				 value[i] && (manifest_keys[i].type != MANIFEST_KIND || kind == MANIFEST_CTS));
	char *written = manifest_format(&m);
	/* manifest_format writes the files sorted by path, as the samples' are not: the keys
	 * are compared, then the whole after a second parse */
	size_t head = strstr(text.buf, "file ") - text.buf;
	assert_int_equal(strncmp(written, text.buf, head), 0);
	assert_int_equal(strncmp(written + head, "file ", 5), 0);
	assert_int_equal(manifest_parse(written, strlen(written), &again, &e), TB_OK);
	char *twice = manifest_format(&again);
	assert_string_equal(twice, written);
	assert_int_equal(again.n_files, m.n_files);
	free(twice);
	free(written);
	manifest_free(&again);
	manifest_free(&m);
	sb_free(&text);
	sb_free(&entries);
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++)
		free((char *)value[i]);
}

static void test_round_trip_mesa(void **state)
{
	(void)state;
	round_trip(MANIFEST_MESA);
}

static void test_round_trip_cts(void **state)
{
	(void)state;
	round_trip(MANIFEST_CTS);
}

/* A required row missing: refused by its name (format by its own sentence). */
static void test_required_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		if (!k->required)
			continue;
		const char *value[MANIFEST_KEY_COUNT];
		for (size_t j = 0; j < MANIFEST_KEY_COUNT; j++)
			value[j] = manifest_keys[j].required && j != i ? sample(&manifest_keys[j], MANIFEST_MESA) : NULL;
		struct strbuf text = {0};
		manifest_keys_write(&text, value);
		sb_append(&text, "drivers=vulkan\nfile " SHA_A " 755 1 lib/libvulkan_freedreno.so\n");
		struct manifest m;
		struct tb_error e = {0};
		assert_int_equal(manifest_parse(text.buf, text.len, &m, &e), TB_EVERIFY);
		assert_string_equal(tb_error_reason(&e), "manifest-invalid");
		assert_non_null(strstr(e.msg, k->name));
		sb_free(&text);
	}
}

/* A row's default, what a Mesa release without its line has: a text row's, a Mesa row's, under
 * a row it names; the drivers' without a drivers line, the others' (gl's among them) in a
 * release of every driver that names no other key. */
static void test_defaults(void **state)
{
	(void)state;
	const char *const no_drivers = "format=1\nversion=1\narch=x\n"
				       "file " SHA_A " 755 1 lib/libvulkan_freedreno.so\n"
				       "file " SHA_A " 755 1 lib/libRusticlOpenCL.so.1\n";
	const char *const every = "format=1\nversion=1\narch=x\ndrivers=vulkan,opencl,gl\n"
				  "file " SHA_A " 755 1 lib/libvulkan_freedreno.so\n"
				  "file " SHA_A " 755 1 lib/libRusticlOpenCL.so.1\n"
				  "file " SHA_A " 755 1 lib/gl/libEGL_mesa.so.0\n"
				  "file " SHA_A " 755 1 lib/gl/libgbm.so.1\n"
				  "file " SHA_A " 755 1 lib/gl/dri/freedreno_dri.so\n";
	struct manifest bare, full;
	struct tb_error e = {0};
	assert_int_equal(manifest_parse(no_drivers, strlen(no_drivers), &bare, &e), TB_OK);
	assert_int_equal(manifest_parse(every, strlen(every), &full, &e), TB_OK);
	int rows = 0;
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		if (!k->absent) {
			assert_null(k->absent_in);
			continue;
		}
		rows++;
		assert_true(k->type != MANIFEST_FORMAT && k->type != MANIFEST_KIND && k->type != MANIFEST_NUMBER);
		assert_true(k->kinds & MANIFEST_FOR_MESA);
		const struct manifest_key *in = k->absent_in ? manifest_key_find(k->absent_in) : NULL;
		if (k->absent_in) {
			assert_non_null(in);
			assert_true(in < k); /* filled first */
		}
		const struct manifest *m = k->type == MANIFEST_DRIVERS ? &bare : &full;
		char number[MANIFEST_NUMBER_TEXT];
		char *want = in ? xasprintf("%s/%s", manifest_key_text(m, in, number), k->absent) : xstrdup(k->absent);
		assert_string_equal(manifest_key_text(m, k, number), want);
		free(want);
	}
	assert_true(bare.has_vulkan && bare.has_opencl && !bare.has_gl);
	assert_true(rows > 0);
	manifest_free(&bare);
	manifest_free(&full);
}

/* pack's options: --stage, then one per row that has one, in the table's order, with the
 * row's placeholder, help and choices, then the tarball's; a row without an option is one
 * pack writes itself, and a required row pack writes nothing for has an option. */
static void test_pack_options_are_the_rows(void **state)
{
	(void)state;
	const struct cli_option *opt = pack_command.options;
	assert_string_equal(opt->name, "--stage");
	opt++;
	size_t first_offset = 0;
	int first = 1;
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		const struct manifest_key *k = &manifest_keys[i];
		if (!k->pack.option) {
			assert_true(k->pack.fallback || k->pack.fallback_of);
			continue;
		}
		char *want = xasprintf("--%s", k->name);
		for (char *p = want; *p; p++)
			if (*p == '_')
				*p = '-';
		assert_string_equal(k->pack.option, want); /* --gbm-lib for gbm_lib */
		free(want);
		assert_non_null(opt->name);
		assert_string_equal(opt->name, k->pack.option);
		assert_string_equal(opt->arg, k->pack.arg);
		assert_string_equal(opt->help, k->pack.help);
		if (k->pack.choices) {
			assert_int_equal(opt->kind, OPT_CHOICE);
			assert_string_equal(opt->choices, k->pack.choices);
		} else {
			assert_true(opt->kind == OPT_STRING || opt->kind == OPT_LIST);
		}
		if (first)
			first_offset = opt->offset - i * sizeof(const char *), first = 0;
		assert_int_equal(opt->offset, first_offset + i * sizeof(const char *));
		assert_ptr_equal(cli_option_find(pack_command.options, k->pack.option), opt);
		opt++;
	}
	assert_string_equal(opt[0].name, "--compress");
	assert_string_equal(opt[1].name, "--keep-links");
	assert_null(opt[2].name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_are_named_once),  cmocka_unit_test(test_each_row_reads_and_refuses),
		cmocka_unit_test(test_round_trip_mesa),      cmocka_unit_test(test_round_trip_cts),
		cmocka_unit_test(test_required_rows),        cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_pack_options_are_the_rows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
