/* The CTS the store holds (docs/design.md §13): CTS releases' trees in cts/<v>/, kept apart
 * from versions/, and cts/current, the one the suites use by default. */
#ifndef TB_STORE_CTS_H
#define TB_STORE_CTS_H

#include "store/store.h"

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

#endif
