/* libFuzzer: the release unpacker on arbitrary archives, into a private store. Whatever the
 * input, nothing may be written outside versions/, and a refusal leaves versions/ empty. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lifecycle/lifecycle.h"
#include "base/hash.h"
#include "release/release.h"
#include "../unit/tmpdir.h"
#include "base/error.h"
#include "base/fs.h"

static struct store store;
static char tarball[256];

static void remove_store(void)
{
	remove_tree(store.root);
}

static int versions_is_empty(void)
{
	char *p = store_path(&store, "versions");
	DIR *d = opendir(p);
	free(p);
	int empty = 1;
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = 0;
	if (d)
		closedir(d);
	return empty;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!store.root) {
		char *dir = test_mkdtemp("fuzz-unpack");
		struct tb_error e = {0};
		if (!dir || store_open(&store, dir, 1, &e) || store_lock(&store, 0, &e))
			abort();
		free(dir);
		snprintf(tarball, sizeof tarball, "%s/cache/input.tar", store.root);
		atexit(remove_store);
	}
	FILE *f = fopen(tarball, "wb");
	fwrite(data, 1, size, f);
	fclose(f);
	char hex[65];
	struct sha256_stream *h = sha256_begin();
	sha256_add(h, data, size);
	sha256_end(h, hex);
	struct unpack_limits limits = {200, 4 << 20, 16 << 20, 1 << 20, 100};
	struct release_request req = {.tarball = tarball, .known_sha256 = hex, .limits = &limits};
	char *version = NULL;
	struct tb_error e = {0};
	if (release_unpack(&store, &req, &version, &e) == TB_OK) {
		struct tb_error ignored = {0};
		release_remove(&store, version, NULL, &ignored);
		free(version);
	} else if (!versions_is_empty()) {
		abort(); /* a refusal left something behind */
	}
	return 0;
}
