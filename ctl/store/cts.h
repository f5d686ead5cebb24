/* The CTS the store holds (docs/design.md §13): CTS releases' trees in cts/<v>/, kept apart
 * from versions/, and cts/current, the one the suites use by default. */
#ifndef TB_STORE_CTS_H
#define TB_STORE_CTS_H

#include "store/store.h"

#include <stddef.h>
#include <stdint.h>

/* The version cts/current points at, or NULL. */
char *store_cts_current(const struct store *s);
/* Points cts/current at cts/<version>, or removes it (version NULL). */
int store_cts_set_current(struct store *s, const char *version, struct tb_error *e);
/* Takes cts/<version> away in one rename, then removes it; cts/current first when it points
 * there. */
int store_cts_remove(struct store *s, const char *version, struct tb_error *e);

/* The suites a CTS release carries. */
enum cts_suite { CTS_DEQP_VK, CTS_OPENCL };
/* The absolute path of a suite in the current CTS: dEQP-VK's binary, or OpenCL-CTS's folder;
 * NULL when no CTS is current or it does not carry that suite. */
char *store_cts_suite_path(const struct store *s, enum cts_suite which);

/* What an installed CTS release carries, read from its MANIFEST. */
struct cts_facts {
	char *version;
	int deqp_vk;             /* carries dEQP-VK */
	size_t opencl_binaries;  /* OpenCL-CTS's test_NAME executables */
	uint64_t bytes;          /* its files' sizes */
	char *vk_gl_cts, *opencl_cts; /* the upstream tags, "" when not named */
};
/* cts/<version>'s facts; TB_EFAIL with a sentence when its MANIFEST cannot be read. */
int store_cts_facts(const struct store *s, const char *version, struct cts_facts *f,
		    struct tb_error *e);
void cts_facts_free(struct cts_facts *f);

#endif
