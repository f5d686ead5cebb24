/* libFuzzer: the MANIFEST parser; what it accepts must survive a format/parse round trip, the
 * value of every key of the key table must be within MANIFEST_VALUE_MAX, and its values must
 * fit the env files the release produces (the launcher's reader accepts them under a store
 * path of PATH_MAX). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <limits.h>

#include "common/envfile.h"
#include "store/manifest.h"
#include "store/manifest_keys.h"
#include "base/error.h"
#include "base/strbuf.h"

static void check_value(const char *v)
{
	if (v && strlen(v) > MANIFEST_VALUE_MAX)
		abort();
}

/* The env file a version gets, as the store writes it, with the longest store path. */
static void check_env_fits(const struct manifest *m)
{
	static char root[PATH_MAX];
	memset(root, 'r', sizeof root - 1);
	root[0] = '/';
	struct strbuf env = {0};
	sb_appendf(&env, "VK_DRIVER_FILES=%s/icd/versions/%s/turnip.json\n", root, m->version);
	sb_appendf(&env, "VK_ICD_FILENAMES=%s/icd/versions/%s/turnip.json\n", root, m->version);
	sb_appendf(&env, "OCL_ICD_VENDORS=%s/icd/versions/%s/opencl\n", root, m->version);
	sb_appendf(&env, "RUSTICL_ENABLE=%s\n", m->rusticl_enable);
	sb_appendf(&env, "LD_LIBRARY_PATH=%s/versions/%s/lib" ENVFILE_LD_SUFFIX "\n", root, m->version);
	static struct env_list list;
	struct env_problem why;
	if (env.len > ENVFILE_MAX_BYTES || envfile_parse(env.buf, env.len, &list, &why) != 0)
		abort();
	sb_free(&env);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct manifest m;
	struct tb_error e = {0};
	if (manifest_parse((const char *)data, size, &m, &e) != TB_OK)
		return 0;
	for (size_t i = 0; i < MANIFEST_KEY_COUNT; i++) {
		char number[MANIFEST_NUMBER_TEXT];
		check_value(manifest_key_text(&m, &manifest_keys[i], number));
	}
	if (m.kind == MANIFEST_MESA) /* a CTS release has no env files */
		check_env_fits(&m);
	char *text = manifest_format(&m);
	struct manifest again;
	struct tb_error e2 = {0};
	if (manifest_parse(text, strlen(text), &again, &e2) != TB_OK)
		abort(); /* pack and install would disagree */
	if (again.n_files != m.n_files || again.n_links != m.n_links || again.kind != m.kind)
		abort();
	manifest_free(&again);
	free(text);
	manifest_free(&m);
	return 0;
}
