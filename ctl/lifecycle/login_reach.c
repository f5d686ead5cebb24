/* Whether logins read a store's env.conf (ctl/lifecycle/login_reach.h). */
#include "lifecycle/login_reach.h"
#include "base/strbuf.h"
#include "common/storepath.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The session files of ours or, beside the helper's, of ours under a second name: the first
 * that exists counts. */
static const char *const environment_links[] = {
	TB_SYSCONFDIR "/environment.d/60-tb323fu-mesa.conf",
	TB_SYSCONFDIR "/environment.d/61-tb323fu-mesa-ctl.conf",
};

enum login_reach login_reach(const struct store *s, const char **link)
{
	struct stat lst;
	*link = environment_links[0];
	for (size_t i = 0; i < sizeof environment_links / sizeof *environment_links; i++) {
		if (lstat(environment_links[i], &lst) != 0)
			continue;
		*link = environment_links[i];
		char *want = store_path(s, STORE_ENV_CONF);
		char *want_real = realpath(want, NULL), *target = realpath(*link, NULL);
		int reads = want_real && target && !strcmp(want_real, target);
		free(want);
		free(want_real);
		free(target);
		return reads ? LOGIN_READS : LOGIN_ELSEWHERE;
	}
	return LOGIN_NO_LINK;
}

int login_reach_say(const struct store *s, struct strbuf *sb)
{
	const char *link;
	enum login_reach reach = login_reach(s, &link);
	if (reach == LOGIN_READS)
		return 0;
	sb_appendf(sb, "no login reads the store %s (%s %s), so programs keep the distribution's Mesa; "
		       "start one with `tb323fu-mesa --store %s run PROGRAM`, or use the store the session "
		       "files name (reinstalling tb323fu-mesa puts them back for %s)",
		   s->root, link, reach == LOGIN_NO_LINK ? "is missing" : "leads to another store's env.conf",
		   s->root, STORE_DEFAULT_ROOT);
	return 1;
}
