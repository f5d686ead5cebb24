/* A dEQP-VK case list on the store's build and on the distribution's Mesa, compared case by
 * case (docs/design.md §10). */
#ifndef TB_SUITE_DEQP_H
#define TB_SUITE_DEQP_H

#include "base/progress.h"
#include "store/store.h"
#include "trial/suite_piglit.h"
#include "base/error.h"

struct json_object;

/* Runs the case list with the dEQP-VK binary deqp through `run --version V` and through
 * `distro`, writes the comparison to smoke/<v>.json's suites."deqp-vk" and returns it in
 * *result (json_object_put it). TB_OK when both sides ran: look at out->regressions. */
int suite_deqp_run(struct store *s, const char *version, const char *deqp,
		   const char *caselist, const struct tb_progress *p, struct suite_outcome *out,
		   struct json_object **result, struct tb_error *e);

#endif
