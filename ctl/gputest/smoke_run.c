/* Runs tb323fu-mesa-smoke through the launcher, reads its --stream events, survives its
 * crashes and hangs, and keeps the result in smoke/<v>.json. */
#include "gputest/smoke_run.h"
#include "store/layout.h"
#include "base/jsontext.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gputest/child.h"
#include "gputest/side.h"
#include "store/jsonfile.h"
#include "store/manifest.h"
#include "base/programs.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/trusted_path.h"
#include "common/smoketests.h"

#define DEFAULT_TIMEOUT_SECONDS 60

#define N_TESTS SMOKE_TEST_COUNT

int smoke_timeout_seconds(void)
{
	const char *v = getenv("TB323FU_MESA_SMOKE_TIMEOUT");
	if (v && *v) {
		char *end;
		long n = strtol(v, &end, 10);
		if (!*end && n > 0 && n <= 86400)
			return (int)n;
	}
	return DEFAULT_TIMEOUT_SECONDS;
}

/* ---- one smoke run ---- */

struct test_record {
	int seen;
	const char *status; /* "pass", "fail", "skip" */
	int64_t ms;
	char detail[480];
};

struct run {
	struct test_record tests[N_TESTS];
	int running; /* index of the test that started and has no result, or -1 */
	int started; /* any event seen */
	const struct tb_progress *progress;
	struct child_tail err;
};

static int test_index(const char *name)
{
	return smoke_test_find(name, strlen(name));
}

static const char *known_status(const char *s)
{
	static const char *const statuses[] = {"pass", "fail", "skip"};
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, statuses[i]))
			return statuses[i];
	return NULL;
}

static void record(struct run *r, int i, const char *status, int64_t ms, const char *detail)
{
	struct test_record *t = &r->tests[i];
	t->seen = 1;
	t->status = status;
	t->ms = ms;
	/* Long details are cut, on a UTF-8 character boundary. */
	size_t n = strlen(detail);
	if (n >= sizeof t->detail) {
		n = sizeof t->detail - 1;
		while (n > 0 && ((unsigned char)detail[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(t->detail, detail, n);
	t->detail[n] = '\0';
	progress_test(r->progress, smoke_test_names[i], status);
}

static const char *get_string(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* One line of the smoke program's --stream output. */
static void handle_event(struct run *r, const char *line)
{
	json_object *o = json_tokener_parse(line);
	if (!o)
		return;
	const char *event = get_string(o, "event"), *name = get_string(o, "name");
	int i = name ? test_index(name) : -1;
	if (event && i >= 0 && !r->tests[i].seen) {
		r->started = 1;
		if (!strcmp(event, "start")) {
			r->running = i;
			progress_test(r->progress, smoke_test_names[i], "run");
		} else if (!strcmp(event, "result")) {
			const char *status = known_status(get_string(o, "status") ? get_string(o, "status") : "");
			const char *detail = get_string(o, "detail");
			json_object *ms;
			int64_t millis = json_object_object_get_ex(o, "ms", &ms) ? json_object_get_int64(ms) : 0;
			record(r, i, status ? status : "fail", millis < 0 ? 0 : millis,
			       status ? (detail ? detail : "") : "the smoke program reported an unknown status");
			if (r->running == i)
				r->running = -1;
		}
	}
	json_object_put(o);
}

/* One line of the smoke program's stdout. */
static void take_line(void *ctx, const char *line)
{
	handle_event(ctx, line);
}

static json_object *result_object(const struct run *r, const char *version, struct smoke_outcome *o)
{
	json_object *tests = json_object_new_array();
	for (int i = 0; i < N_TESTS; i++) {
		const struct test_record *t = &r->tests[i];
		json_object *x = json_object_new_object();
		json_object_object_add(x, "name", json_object_new_string(smoke_test_names[i]));
		json_object_object_add(x, "status", json_object_new_string(t->status));
		json_object_object_add(x, "ms", json_object_new_int64(t->ms));
		json_object_object_add(x, "detail", json_object_new_string(t->detail));
		json_object_array_add(tests, x);
		if (!strcmp(t->status, "pass"))
			o->passed++;
		else if (!strcmp(t->status, "skip"))
			o->skipped++;
		else if (o->failed++ == 0)
			snprintf(o->first_failure, sizeof o->first_failure, "%s: %s", smoke_test_names[i],
				 t->detail);
	}
	json_object *res = json_object_new_object();
	json_object_object_add(res, "version", json_object_new_string(version));
	json_object_object_add(res, "passed", json_object_new_int(o->passed));
	json_object_object_add(res, "failed", json_object_new_int(o->failed));
	json_object_object_add(res, "skipped", json_object_new_int(o->skipped));
	json_object_object_add(res, "tests", tests);
	return res;
}

/* Turns the way the child ended into results for the tests it did not report. */
static int account_for_end(struct run *r, int timed_out, int status, int timeout,
			   struct tb_error *e)
{
	char how[160], last[200];
	child_describe_status(status, how, sizeof how);
	child_tail_last_line(&r->err, last, sizeof last);
	int abnormal = timed_out || WIFSIGNALED(status);

	if (!r->started) {
		if (timed_out)
			return tb_fail(e, TB_R_SMOKE_NOT_STARTED, "the smoke tests did not start within %d s; "
				       "the launcher or the smoke program hangs", timeout);
		return tb_fail(e, TB_R_SMOKE_NOT_STARTED, "the smoke tests could not start (%s%s%s)", how,
			       last[0] ? ": " : "", last);
	}
	char cause[1024];
	if (timed_out)
		snprintf(cause, sizeof cause, "timed out after %d s and was killed", timeout);
	else if (WIFSIGNALED(status))
		snprintf(cause, sizeof cause, "the smoke program crashed with %s%s%s", how,
			 last[0] ? "; its last message: " : "", last);
	else
		snprintf(cause, sizeof cause, "the smoke program ended with %s before reporting it%s%s",
			 how, last[0] ? "; its last message: " : "", last);

	int blamed = -1;
	if (r->running >= 0) {
		blamed = r->running;
	} else if (abnormal) {
		/* Between tests: blame the next one, or the last one when all had reported. */
		for (int i = 0; i < N_TESTS && blamed < 0; i++)
			if (!r->tests[i].seen)
				blamed = i;
		if (blamed < 0) {
			blamed = N_TESTS - 1;
			r->tests[blamed].seen = 0;
			snprintf(cause, sizeof cause, "%.300s, then the smoke program %s while shutting down",
				 r->tests[blamed].detail, timed_out ? "hung" : "crashed");
		}
	}
	if (blamed >= 0)
		record(r, blamed, "fail", 0, cause);
	for (int i = 0; i < N_TESTS; i++) {
		if (r->tests[i].seen)
			continue;
		/* The test that was running carries the failure; the ones after it did not run. */
		char note[300];
		if (blamed >= 0)
			snprintf(note, sizeof note, "not run: the smoke program %s during %s",
				 timed_out ? "was stopped" : abnormal ? "crashed" : "ended", smoke_test_names[blamed]);
		else
			snprintf(note, sizeof note, "not run: the smoke program ended with %s", how);
		record(r, i, blamed >= 0 ? "skip" : "fail", 0, note);
	}
	return TB_OK;
}

/* Readers take at most SMOKE_RESULT_MAX bytes of smoke/<v>.json (smoke_read_result). */
#define SMOKE_RESULT_MAX ((size_t)16 << 20)

/* Keeps in each suite's list (results, regressions, fixed) only the entries keep() wants,
 * at most max of them. */
static void thin_suites(json_object *res, const char *key, int (*keep)(json_object *), size_t max)
{
	json_object *suites, *list;
	if (!json_object_object_get_ex(res, "suites", &suites) || !json_object_is_type(suites, json_type_object))
		return;
	json_object_object_foreach(suites, name, suite) {
		(void)name;
		if (!json_object_object_get_ex(suite, key, &list) || !json_object_is_type(list, json_type_array))
			continue;
		json_object *kept = json_object_new_array();
		for (size_t i = 0; i < json_object_array_length(list) && json_object_array_length(kept) < max; i++) {
			json_object *t = json_object_array_get_idx(list, i);
			if (!keep || keep(t))
				json_object_array_add(kept, json_object_get(t));
		}
		json_object_object_add(suite, key, kept);
	}
}

static int results_differ(json_object *t)
{
	json_object *a, *b;
	return !json_object_object_get_ex(t, "store", &a) || !json_object_object_get_ex(t, "distribution", &b) ||
	       strcmp(json_object_get_string(a), json_object_get_string(b)) != 0;
}

/* The summary (passed, failed, the tests, the suites' counts) must stay readable however many
 * tests a suite ran: over the readers' bound, the per-test lists keep the tests whose sides
 * differ, then the first thousand names. */
static const char *bounded_text(json_object *res)
{
	const int flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *text = json_out(res, flags);
	if (strlen(text) + 1 < SMOKE_RESULT_MAX)
		return text;
	thin_suites(res, "results", results_differ, SIZE_MAX);
	text = json_out(res, flags);
	if (strlen(text) + 1 < SMOKE_RESULT_MAX)
		return text;
	thin_suites(res, "results", NULL, 0);
	thin_suites(res, "regressions", NULL, 1000);
	thin_suites(res, "fixed", NULL, 1000);
	return json_out(res, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
}

static int write_result(struct store *s, const char *version, json_object *res,
			struct tb_error *e)
{
	const char *text = bounded_text(res);
	/* smoke/ made when missing, smoke/<v>.json a file: as the layout says */
	char *rel = xasprintf(STORE_SMOKE_DIR "/%s" STORE_SMOKE_SUFFIX, version);
	char *file = store_reach_file(s, rel, 1, e);
	char *body = xasprintf("%s\n", text);
	int rc = file ? atomic_write_file(file, body, strlen(body), 0644, e) : e->code;
	free(body);
	free(rel);
	free(file);
	return rc;
}

int smoke_record_set(struct store *s, const char *version, const char *key, const char *name,
		     json_object *value, struct tb_error *e)
{
	json_object *res = smoke_read_result(s, version);
	if (!res) {
		res = json_object_new_object();
		json_object_object_add(res, "version", json_object_new_string(version));
	}
	if (name) {
		json_object *section;
		if (!json_object_object_get_ex(res, key, &section) ||
		    !json_object_is_type(section, json_type_object)) {
			section = json_object_new_object();
			json_object_object_add(res, key, section);
		}
		json_object_object_add(section, name, value);
	} else {
		json_object_object_add(res, key, value);
	}
	int rc = write_result(s, version, res, e);
	json_object_put(res);
	return rc;
}

char *smoke_tests_unknown(const char *tests)
{
	const char *p = tests;
	for (;;) {
		size_t len = strcspn(p, ",");
		if (smoke_test_find(p, len) < 0)
			return xasprintf("%.*s", (int)len, p);
		if (!p[len])
			return NULL;
		p += len + 1;
	}
}

int smoke_run_version(struct store *s, const char *version, const struct tb_progress *p,
		      struct smoke_outcome *o, struct tb_error *e)
{
	return smoke_run_tests(s, version, NULL, p, o, e);
}

int smoke_run_tests(struct store *s, const char *version, const char *tests,
		    const struct tb_progress *p, struct smoke_outcome *o, struct tb_error *e)
{
	memset(o, 0, sizeof *o);
	char *tree = store_version_dir(s, version);
	struct manifest m;
	int rc = manifest_load(tree, &m, e);
	if (rc) {
		free(tree);
		return rc;
	}
	char *smoke = find_smoke_program();
	if (!smoke) {
		free(tree);
		manifest_free(&m);
		return tb_fail(e, TB_R_PROGRAM_MISSING, "tb323fu-mesa-smoke is neither next to tb323fu-ctl nor in "
			       TB_PREFIX "/libexec/tb323fu-mesa; reinstall, or set TB323FU_MESA_SMOKE");
	}
	if (trusted_program_path(smoke, "the smoke program", e) != TB_OK) {
		free(smoke);
		free(tree);
		manifest_free(&m);
		return e->code;
	}

	char *vulkan_lib = m.has_vulkan ? path_join(tree, m.vulkan_lib) : NULL;
	char *opencl_lib = m.has_opencl ? path_join(tree, m.opencl_lib) : NULL;
	/* GL: the EGL vendor that must be mapped, GL's folder, and the launcher that runs gl.zink
	 * under `run --gl zink` when the release has Zink */
	char *egl_lib = m.has_gl ? path_join(tree, m.egl_vendor_lib) : NULL;
	char *gl_dir = m.has_gl ? path_join(tree, m.gl_lib_dir) : NULL;
	char *launcher = manifest_has_gallium(&m, "zink") ? find_launcher_program() : NULL;
	char driver_id[16];
	snprintf(driver_id, sizeof driver_id, "%d", m.vulkan_driver_id);
	char *cmd[24];
	int n = 0;
	cmd[n++] = smoke;
	cmd[n++] = "--stream";
	cmd[n++] = "--version";
	cmd[n++] = (char *)version;
	if (vulkan_lib) {
		cmd[n++] = "--vulkan-lib";
		cmd[n++] = vulkan_lib;
		if (m.vulkan_driver_id >= 0) {
			cmd[n++] = "--driver-id";
			cmd[n++] = driver_id;
		}
	} else {
		cmd[n++] = "--no-vulkan";
	}
	if (opencl_lib) {
		cmd[n++] = "--opencl-lib";
		cmd[n++] = opencl_lib;
	} else {
		cmd[n++] = "--no-opencl";
	}
	if (egl_lib) {
		cmd[n++] = "--egl-lib";
		cmd[n++] = egl_lib;
		cmd[n++] = "--gl-dir";
		cmd[n++] = gl_dir;
	}
	if (egl_lib && launcher) {
		cmd[n++] = "--zink-launcher";
		cmd[n++] = launcher;
		cmd[n++] = "--zink-store";
		cmd[n++] = s->root;
	}
	if (tests) {
		cmd[n++] = "--tests";
		cmd[n++] = (char *)tests;
	}
	cmd[n] = NULL;

	struct run *r = xcalloc(1, sizeof *r);
	r->running = -1;
	r->progress = p;
	for (int i = 0; i < N_TESTS; i++)
		r->tests[i].status = "fail";
	int timeout = smoke_timeout_seconds();
	char **argv = side_launch_argv(s, version, SIDE_STORE, cmd, e);
	struct child child;
	rc = argv ? child_start(&child, argv, NULL, e) : TB_EFAIL;
	if (!rc) {
		int status = 0;
		struct child_watch w = {.line = take_line, .err_tail = &r->err,
					.deadline = now_seconds() + timeout, .ctx = r};
		int end = child_supervise(&child, &w, &status);
		rc = end == CHILD_INTERRUPTED ? tb_check_interrupted(e, "the smoke tests ran")
					      : account_for_end(r, end == CHILD_TIMED_OUT, status, timeout, e);
	}
	if (!rc) {
		json_object *res = result_object(r, version, o);
		/* the suites and the benchmark of the version stay: they are other runs' results */
		json_object *old = smoke_read_result(s, version), *keep;
		static const char *const kept[] = {"suites", "bench"};
		for (size_t k = 0; old && k < sizeof kept / sizeof kept[0]; k++)
			if (json_object_object_get_ex(old, kept[k], &keep))
				json_object_object_add(res, kept[k], json_object_get(keep));
		json_object_put(old);
		rc = write_result(s, version, res, e);
		json_object_put(res);
	}
	side_free_argv(argv);
	free(r);
	free(vulkan_lib);
	free(opencl_lib);
	free(egl_lib);
	free(gl_dir);
	free(launcher);
	free(smoke);
	free(tree);
	manifest_free(&m);
	return rc;
}

json_object *smoke_read_result(const struct store *s, const char *version)
{
	if (!version_name_ok(version))
		return NULL;
	/* nothing read through a link or from a FIFO planted in smoke/ (docs/design.md §3) */
	char *rel = xasprintf(STORE_SMOKE_DIR "/%s" STORE_SMOKE_SUFFIX, version);
	struct tb_error refused = {0};
	char *file = store_reach_file(s, rel, 0, &refused);
	json_object *o = file ? json_file_read_object(file, SMOKE_RESULT_MAX) : NULL;
	free(rel);
	free(file);
	return o;
}

const char *smoke_last_result(const struct store *s, const char *version)
{
	json_object *o = smoke_read_result(s, version);
	if (!o)
		return "none";
	json_object *failed, *passed;
	const char *verdict = "none";
	if (json_object_object_get_ex(o, "failed", &failed) &&
	    json_object_object_get_ex(o, "passed", &passed))
		verdict = json_object_get_int(failed) == 0 ? "pass" : "fail";
	json_object_put(o);
	return verdict;
}
