/* Running a command on the store's side or the distribution's, reading its output by lines. */
#include "side.h"

#include <stdio.h>
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

static const struct {
	const char *what, *env;
	int seconds;
} jobs[] = {
	[SIDE_JOB_BENCH] = {"the benchmark", "TB323FU_MESA_BENCH_TIMEOUT", SIDE_BENCH_SECONDS},
	[SIDE_JOB_PIGLIT] = {"piglit", "TB323FU_MESA_PIGLIT_TIMEOUT", SIDE_PIGLIT_SECONDS},
};

int side_time_limit(enum side_job job)
{
	const char *v = getenv(jobs[job].env);
	if (v && *v) {
		char *end;
		long n = strtol(v, &end, 10);
		if (!*end && n > 0 && n <= 7 * 86400)
			return (int)n;
	}
	return jobs[job].seconds;
}

int side_run(char *const argv[], const char *cwd, enum side_job job, side_line_fn line,
	     void *ctx, int *status, int *timed_out, struct child_tail *tail, struct tb_error *e)
{
	struct child c;
	*status = 0;
	*timed_out = 0;
	int rc = child_start(&c, argv, cwd, e);
	if (rc)
		return rc;
	int limit = side_time_limit(job);
	struct child_watch w = {.line = line, .err_tail = tail,
				.deadline = now_seconds() + limit, .ctx = ctx};
	int end = child_supervise(&c, &w, status);
	if (end == CHILD_INTERRUPTED) {
		char what[64];
		snprintf(what, sizeof what, "%s ran", jobs[job].what);
		return tb_check_interrupted(e, what);
	}
	if (end == CHILD_TIMED_OUT) {
		*timed_out = 1;
		return tb_fail_why(e, TB_EFAIL, "failed",
				   "%s ran longer than its time limit of %d s a run and was stopped with "
				   "everything it started; set %s=SECONDS to allow more",
				   jobs[job].what, limit, jobs[job].env);
	}
	return TB_OK;
}
