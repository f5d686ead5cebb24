/* Benchmark driver: one fetch_file() of URL into OUT (the transfer, the SHA-256 while it
 * arrives, the write and fsync), exactly as `mesa download` does it, without the unpack.
 * usage: download_fetch URL OUT SIZE */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "release/fetch.h"

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s URL OUT SIZE\n", argv[0]);
		return 2;
	}
	struct config cfg;
	config_defaults(&cfg);
	uint64_t size = strtoull(argv[3], NULL, 10);
	struct fetch_request rq = {.url = argv[1], .accept = "application/octet-stream",
				   .max_bytes = size, .too_big = TB_R_TOO_LARGE, .what = "the asset"};
	struct fetch_file_result res;
	struct tb_error e = {0};
	unlink(argv[2]);
	int rc = fetch_file(&cfg, &rq, argv[2], size, NULL, "asset", &res, &e);
	if (rc) {
		fprintf(stderr, "download_fetch: %s\n", e.msg);
		return rc;
	}
	printf("%s\n", res.sha256);
	config_free(&cfg);
	return 0;
}
