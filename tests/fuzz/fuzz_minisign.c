/* minisign signature files and public keys over arbitrary bytes. The first byte chooses:
 * odd, the rest is a public_key value; even, the rest is a signature file checked with a
 * fixed trusted key over a fixed SHA256SUMS. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "release/minisign.h"
#include "../unit/tmpdir.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"

#define KEY_A "RWSK1wu0jvJrLnEu+YP32aTe0viV5G18BEbfADkvm9ahgiihgfM1emex"

static char *dir, *data_path, *sig_path;

/* One directory for the whole run (libFuzzer ends with exit(), so this runs). */
static void remove_dir(void)
{
	remove_tree(dir);
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "w");
	if (!f)
		abort();
	fwrite(p, 1, n, f);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!data_path) {
		dir = test_mkdtemp("fuzz_minisign");
		if (!dir)
			abort();
		atexit(remove_dir);
		data_path = path_join(dir, "SHA256SUMS");
		sig_path = path_join(dir, "SHA256SUMS.minisig");
		static const char sums[] =
			"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef  tb323fu-mesa-2026.10.06-x86_64.tar.gz\n";
		write_file(data_path, (const uint8_t *)sums, strlen(sums));
	}
	if (size < 1)
		return 0;
	struct config cfg;
	config_defaults(&cfg);
	free(cfg.keys_dir);
	cfg.keys_dir = NULL;
	struct tb_error e = {0};
	if (data[0] & 1) {
		cfg.public_keys[cfg.n_public_keys++] = strndup((const char *)data + 1, size - 1);
		minisign_verify_file(&cfg, data_path, NULL, "2026.10.06", &e);
	} else {
		cfg.public_keys[cfg.n_public_keys++] = strdup(KEY_A);
		write_file(sig_path, data + 1, size - 1);
		minisign_verify_file(&cfg, data_path, sig_path, "2026.10.06", &e);
	}
	config_free(&cfg);
	return 0;
}
