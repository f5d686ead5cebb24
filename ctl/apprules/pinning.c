/* Which rule pins a version (ctl/apprules/pinning.h): the rule files, and where one is damaged
 * the rules its scope's entries of ours record. */
#include "apprules/pinning.h"
#include "apprules/override_files.h"
#include "base/alloc.h"

#include <stdlib.h>
#include <string.h>

/* The rules of one scope as far as they can be known: the file, else (damaged) what the
 * override entries record. */
static void rules_known(const struct app_scope *sc, struct app_rules *r)
{
	struct tb_error ignored = {0};
	if (apprules_load(sc, r, &ignored) == 1)
		override_recover_rules(sc->apps_dir, r);
}

static char *pin_in(const struct app_scope *sc, const char *version, const char *whose,
		    const char *unset)
{
	struct app_rules r;
	rules_known(sc, &r);
	char *found = NULL;
	for (size_t i = 0; i < r.n && !found; i++)
		if (!strcmp(r.v[i].choice, version))
			found = xasprintf("%s rule for %s (tb323fu-ctl mesa app unset%s %s)", whose,
					  r.v[i].id, unset, r.v[i].id);
	apprules_free(&r);
	return found;
}

char *apprules_pinning(const struct store *s, const char *version)
{
	struct app_scope sc;
	app_scope_system(&sc, s);
	char *found = pin_in(&sc, version, "the system's", "");
	app_scope_free(&sc);
	struct tb_error ignored = {0};
	if (!found && app_scope_user(&sc, &ignored) == 0) {
		found = pin_in(&sc, version, "your", " --user");
		app_scope_free(&sc);
	}
	return found;
}
