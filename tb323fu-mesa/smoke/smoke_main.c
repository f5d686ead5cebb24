/* tb323fu-mesa-smoke: proves that a Mesa build really drives the GPU through the system's
 * Vulkan and OpenCL loaders (docs/design.md §7). The control tool runs it through the launcher, so
 * the environment is exactly what applications get, and reads its --stream events. */
#include "smoke/smoke.h"
#include "common/smoketests.h"

#include <errno.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: tb323fu-mesa-smoke [--json] [--stream] [--version V] [--vulkan-lib PATH]\n"
	"                          [--driver-id N] [--opencl-lib PATH] [--no-vulkan] [--no-opencl]\n"
	"                          [--egl-lib PATH --gl-dir DIR [--zink-launcher PATH --zink-store DIR]]\n"
	"                          [--tests NAME,…]\n"
	"  --json        print the result as one JSON object\n"
	"  --stream      print one JSON line as each test starts and ends\n"
	"  --vulkan-lib  the Vulkan driver that must be the only one mapped\n"
	"  --driver-id   the VkDriverId the device must report\n"
	"  --opencl-lib  the OpenCL driver that must be the only one mapped\n"
	"  --no-vulkan / --no-opencl   skip the tests of a driver the release lacks\n"
	"  --egl-lib     the release's EGL vendor library, which must be the one mapped (GL's\n"
	"                tests are skipped without it)\n"
	"  --gl-dir      the release's GL folder, where every GL library mapped must be\n"
	"  --zink-launcher, --zink-store   the launcher and store that start gl.zink's run\n"
	"                (run --gl zink); gl.zink is skipped without them\n"
	"  --tests       run only these tests (" SMOKE_TEST_LIST ");\n"
	"                the others are reported as skipped\n";

enum api { API_VULKAN, API_OPENCL, API_GL, API_ZINK };

struct test {
	enum api api;
	int needs; /* the test whose setup this one reuses (index), or -1 */
	void (*run)(struct smoke_ctx *c, struct smoke_result *r);
};

static const struct test tests[SMOKE_TEST_COUNT] = {
	[SMOKE_VK_LOADER] = {API_VULKAN, -1, smoke_vk_loader},
	[SMOKE_VK_DRIVER] = {API_VULKAN, SMOKE_VK_LOADER, smoke_vk_driver},
	[SMOKE_VK_COMPUTE] = {API_VULKAN, SMOKE_VK_LOADER, smoke_vk_compute},
	[SMOKE_VK_SYNC] = {API_VULKAN, SMOKE_VK_LOADER, smoke_vk_sync},
	[SMOKE_CL_PLATFORM] = {API_OPENCL, -1, smoke_cl_platform},
	[SMOKE_CL_KERNEL] = {API_OPENCL, SMOKE_CL_PLATFORM, smoke_cl_kernel},
	[SMOKE_GL_DRAW] = {API_GL, -1, smoke_gl_draw},
	[SMOKE_GL_ZINK] = {API_ZINK, -1, smoke_gl_zink},
};

/* Why a test of what the release lacks is skipped, or NULL when it has it. */
static const char *lacking(enum api api, const struct smoke_options *opt)
{
	switch (api) {
	case API_VULKAN: return opt->no_vulkan ? "the release ships no Vulkan driver" : NULL;
	case API_OPENCL: return opt->no_opencl ? "the release ships no OpenCL driver" : NULL;
	case API_GL: return !opt->egl_lib ? "the release ships no GL" : NULL;
	case API_ZINK: return !opt->egl_lib ? "the release ships no GL"
			      : !opt->zink_launcher ? "the release has no Zink" : NULL;
	}
	return NULL;
}
#define N_TESTS ((size_t)SMOKE_TEST_COUNT)

/* --tests a,b,…: marks the chosen tests; -1 naming the first unknown one. */
static int select_tests(const char *list, int chosen[N_TESTS])
{
	memset(chosen, 0, N_TESTS * sizeof chosen[0]);
	const char *p = list;
	for (;;) {
		size_t len = strcspn(p, ",");
		int i = smoke_test_find(p, len);
		if (i < 0) {
			fprintf(stderr, "tb323fu-mesa-smoke: --tests: no test is named \"%.*s\" (the tests: "
				SMOKE_TEST_LIST ")\n", (int)len, p);
			return -1;
		}
		chosen[i] = 1;
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static const char *status_names[] = {"pass", "fail", "skip"};

/* In sanitizer builds: the drivers this program loads keep allocations until exit and are
 * unloaded by the loaders, so LeakSanitizer would report their memory (as "unknown module")
 * and turn every run into a failure. Memory errors are still caught. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "detect_leaks=0";
}

/* Runs test i once, unreported, for the setup a chosen test builds on; 1 when it passed. */
static int prepared(struct smoke_ctx *c, size_t i, struct smoke_result setup[N_TESTS],
		    int done[N_TESTS])
{
	if (!done[i]) {
		setup[i] = (struct smoke_result){.status = SMOKE_FAIL};
		tests[i].run(c, &setup[i]);
		done[i] = 1;
	}
	return setup[i].status == SMOKE_PASS;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static json_object *result_json(const char *name, const struct smoke_result *r, int64_t ms)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "status", json_object_new_string(status_names[r->status]));
	json_object_object_add(o, "ms", json_object_new_int64(ms));
	json_object_object_add(o, "detail", json_object_new_string(r->detail));
	return o;
}

static void emit(FILE *out, json_object *o)
{
	fprintf(out, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	fflush(out);
}

static int parse_driver_id(const char *s, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > 0x7fffffff)
		return -1;
	*out = (int)v;
	return 0;
}

/* The program runs as a child that is ended with SIGTERM (then SIGKILL) when it takes too
 * long or its parent is stopped: whatever it inherited (an ignored or blocked SIGTERM), those
 * signals end it at once. It keeps nothing a half-done test would spoil. */
static void default_signals(void)
{
	static const int ending[] = {SIGTERM, SIGINT, SIGHUP};
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < sizeof ending / sizeof *ending; i++) {
		signal(ending[i], SIG_DFL);
		sigaddset(&set, ending[i]);
	}
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int main(int argc, char **argv)
{
	default_signals();
	struct smoke_options opt = {.vulkan_driver_id = -1};
	int json = 0, stream = 0;
	int chosen[N_TESTS];
	for (size_t i = 0; i < N_TESTS; i++)
		chosen[i] = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "--stream")) {
			stream = 1;
		} else if (!strcmp(a, "--no-vulkan")) {
			opt.no_vulkan = 1;
		} else if (!strcmp(a, "--no-opencl")) {
			opt.no_opencl = 1;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return 0;
		} else if (!value && !strcmp(a, "--version") && argc == 2) {
			/* alone, it asks for the program's version; with a value it names the store's */
			printf("tb323fu-mesa-smoke %s\n", TB_VERSION);
			return 0;
		} else if (value && !strcmp(a, "--version")) {
			opt.version = argv[++i];
		} else if (value && !strcmp(a, "--vulkan-lib")) {
			opt.vulkan_lib = argv[++i];
		} else if (value && !strcmp(a, "--opencl-lib")) {
			opt.opencl_lib = argv[++i];
		} else if (value && !strcmp(a, "--egl-lib")) {
			opt.egl_lib = argv[++i];
		} else if (value && !strcmp(a, "--gl-dir")) {
			opt.gl_dir = argv[++i];
		} else if (value && !strcmp(a, "--zink-launcher")) {
			opt.zink_launcher = argv[++i];
		} else if (value && !strcmp(a, "--zink-store")) {
			opt.zink_store = argv[++i];
		} else if (!strcmp(a, "--zink-child")) {
			opt.zink_child = 1;
		} else if (value && !strcmp(a, "--tests")) {
			if (select_tests(argv[++i], chosen) < 0)
				return 2;
		} else if (value && !strcmp(a, "--driver-id")) {
			if (parse_driver_id(argv[++i], &opt.vulkan_driver_id) < 0) {
				fprintf(stderr, "tb323fu-mesa-smoke: --driver-id wants a VkDriverId "
					"number, not \"%s\"\n", argv[i]);
				return 2;
			}
		} else {
			fprintf(stderr, "tb323fu-mesa-smoke: unknown or incomplete argument \"%s\"\n%s",
				a, usage);
			return 2;
		}
	}

	if ((opt.egl_lib != NULL) != (opt.gl_dir != NULL) || (opt.zink_launcher != NULL) != (opt.zink_store != NULL) ||
	    (opt.zink_child && !opt.egl_lib)) {
		fprintf(stderr, "tb323fu-mesa-smoke: --egl-lib and --gl-dir go together, as do --zink-launcher "
			"and --zink-store; --zink-child needs the first two\n%s", usage);
		return 2;
	}
	/* Drivers may print to stdout: keep the real stdout for our JSON alone and send
	 * everything else written to fd 1 to stderr. */
	FILE *out = stdout;
	if (json || stream || opt.zink_child) {
		fflush(stdout);
		int fd = dup(STDOUT_FILENO);
		if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 || !(out = fdopen(fd, "w"))) {
			perror("tb323fu-mesa-smoke: stdout");
			return 1;
		}
	}

	if (opt.zink_child)
		return smoke_gl_zink_child(&opt, out);
	struct smoke_ctx ctx = {.opt = &opt};
	json_object *list = json_object_new_array();
	int counts[3] = {0};
	/* A chosen test whose setup another test makes (the instance of vk.loader, the
	 * platform of cl.platform) runs that one first, unreported, when it was not chosen. */
	struct smoke_result setup[N_TESTS];
	int setup_done[N_TESTS] = {0};
	for (size_t i = 0; i < N_TESTS; i++) {
		const struct test *t = &tests[i];
		struct smoke_result r = {.status = SMOKE_FAIL};
		if (stream) {
			json_object *ev = json_object_new_object();
			json_object_object_add(ev, "event", json_object_new_string("start"));
			json_object_object_add(ev, "name", json_object_new_string(smoke_test_names[i]));
			emit(out, ev);
			json_object_put(ev);
		}
		double t0 = now_ms();
		int need = t->needs;
		if (lacking(t->api, &opt)) {
			smoke_set(&r, SMOKE_SKIP, "%s", lacking(t->api, &opt));
		} else if (!chosen[i]) {
			smoke_set(&r, SMOKE_SKIP, "not chosen (--tests)");
		} else if (need >= 0 && !chosen[need] && !prepared(&ctx, need, setup, setup_done)) {
			smoke_set(&r, SMOKE_FAIL, "%s, which this test builds on, failed: %.400s",
				  smoke_test_names[need], setup[need].detail);
		} else {
			t->run(&ctx, &r);
		}
		int64_t ms = (int64_t)(now_ms() - t0 + 0.5);
		counts[r.status]++;
		json_object *res = result_json(smoke_test_names[i], &r, ms);
		if (stream) {
			json_object *ev = json_object_new_object();
			json_object_object_add(ev, "event", json_object_new_string("result"));
			json_object_object_foreach(res, key, val)
				json_object_object_add(ev, key, json_object_get(val));
			emit(out, ev);
			json_object_put(ev);
		}
		if (!json && !stream)
			printf("%-12s %-4s %5lld ms  %s\n", smoke_test_names[i], status_names[r.status],
			       (long long)ms, r.detail);
		json_object_array_add(list, res);
	}
	smoke_vk_destroy(&ctx);
	smoke_cl_destroy(&ctx);

	if (json) {
		json_object *o = json_object_new_object();
		json_object_object_add(o, "version", json_object_new_string(opt.version ? opt.version : ""));
		json_object_object_add(o, "passed", json_object_new_int(counts[SMOKE_PASS]));
		json_object_object_add(o, "failed", json_object_new_int(counts[SMOKE_FAIL]));
		json_object_object_add(o, "skipped", json_object_new_int(counts[SMOKE_SKIP]));
		json_object_object_add(o, "tests", json_object_get(list));
		emit(out, o);
		json_object_put(o);
	} else if (!stream) {
		printf("%d passed, %d failed, %d skipped\n", counts[SMOKE_PASS], counts[SMOKE_FAIL],
		       counts[SMOKE_SKIP]);
	}
	json_object_put(list);
	fflush(out);
	return counts[SMOKE_FAIL] ? 1 : 0;
}
