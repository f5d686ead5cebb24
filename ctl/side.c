/* Running a command on the store's side or the distribution's, reading its output by lines. */
#include "side.h"

#include <stdlib.h>
#include <string.h>

#include "programs.h"

const char *side_name(enum side side)
{
	return side == SIDE_STORE ? "store" : "distribution";
}

char **side_argv(const struct store *s, const char *version, enum side side,
		 const char *rusticl_enable, char *const env[], char *const cmd[],
		 struct tb_error *e)
{
	char *envprog = find_program("env", NULL);
	if (!envprog) {
		tb_fail_why(e, TB_EFAIL, "program-missing", "env(1) is not in PATH; install coreutils");
		return NULL;
	}
	size_t n_env = 0, n_cmd = 0;
	while (env && env[n_env])
		n_env++;
	while (cmd[n_cmd])
		n_cmd++;
	char **inner = xcalloc(n_env + n_cmd + 3, sizeof *inner);
	size_t i = 0;
	inner[i++] = envprog;
	if (side == SIDE_DISTRO && rusticl_enable && *rusticl_enable)
		inner[i++] = xasprintf("RUSTICL_ENABLE=%s", rusticl_enable);
	for (size_t k = 0; k < n_env; k++)
		inner[i++] = xstrdup(env[k]);
	for (size_t k = 0; k < n_cmd; k++)
		inner[i++] = xstrdup(cmd[k]);
	char **argv = NULL;
	if (side == SIDE_STORE) {
		argv = smoke_launch_argv(s, version, inner, e);
	} else {
		char *launcher = find_launcher_program();
		if (!launcher) {
			tb_fail_why(e, TB_EFAIL, "program-missing", "the launcher tb323fu-mesa is neither next to tb323fu-ctl nor in "
				TB_PREFIX "/bin; reinstall tb323fu-mesa");
		} else {
			argv = xcalloc(i + 5, sizeof *argv);
			size_t j = 0;
			argv[j++] = launcher;
			argv[j++] = xstrdup("--store");
			argv[j++] = xstrdup(s->root);
			argv[j++] = xstrdup("distro");
			for (size_t k = 0; k < i; k++)
				argv[j++] = xstrdup(inner[k]);
		}
	}
	smoke_free_argv(inner);
	return argv;
}

int side_run(char *const argv[], const char *cwd, int timeout, side_line_fn line, void *ctx,
	     int *status, int *timed_out, struct child_tail *tail, struct tb_error *e)
{
	struct child c;
	*status = 0;
	*timed_out = 0;
	int rc = child_start(&c, argv, cwd, e);
	if (rc)
		return rc;
	struct child_watch w = {.line = line, .err_tail = tail,
				.deadline = timeout > 0 ? now_seconds() + timeout : 0, .ctx = ctx};
	*timed_out = child_supervise(&c, &w, status);
	return TB_OK;
}
