/* tb323fu-mesa-smoke: proves that a Mesa build really drives the GPU through the system's
 * Vulkan and OpenCL loaders (docs/design.md §7). The control tool runs it through the launcher, so
 * the environment is exactly what applications get, and reads its --stream events. */
#include "smoke.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
	"usage: tb323fu-mesa-smoke [--json] [--stream] [--version V] [--vulkan-lib PATH]\n"
	"                          [--driver-id N] [--opencl-lib PATH] [--no-vulkan] [--no-opencl]\n"
	"  --json        print the result as one JSON object\n"
	"  --stream      print one JSON line as each test starts and ends\n"
	"  --vulkan-lib  the Vulkan driver that must be the only one mapped\n"
	"  --driver-id   the VkDriverId the device must report\n"
	"  --opencl-lib  the OpenCL driver that must be the only one mapped\n"
	"  --no-vulkan / --no-opencl   skip the tests of a driver the release lacks\n";

struct test {
	const char *name;
	int opencl;
	void (*run)(struct smoke_ctx *c, struct smoke_result *r);
};

static const struct test tests[] = {
	{"vk.loader", 0, smoke_vk_loader},
	{"vk.driver", 0, smoke_vk_driver},
	{"vk.compute", 0, smoke_vk_compute},
	{"vk.sync", 0, smoke_vk_sync},
	{"cl.platform", 1, smoke_cl_platform},
	{"cl.kernel", 1, smoke_cl_kernel},
};
#define N_TESTS (sizeof tests / sizeof tests[0])

static const char *status_names[] = {"pass", "fail", "skip"};

/* In sanitizer builds: the drivers this program loads keep allocations until exit and are
 * unloaded by the loaders, so LeakSanitizer would report their memory (as "unknown module")
 * and turn every run into a failure. Memory errors are still caught. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "detect_leaks=0";
}

void smoke_set(struct smoke_result *r, enum smoke_status status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	r->status = status;
	vsnprintf(r->detail, sizeof r->detail, fmt, ap);
	va_end(ap);
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

int main(int argc, char **argv)
{
	struct smoke_options opt = {.vulkan_driver_id = -1};
	int json = 0, stream = 0;
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

	/* Drivers may print to stdout: keep the real stdout for our JSON alone and send
	 * everything else written to fd 1 to stderr. */
	FILE *out = stdout;
	if (json || stream) {
		fflush(stdout);
		int fd = dup(STDOUT_FILENO);
		if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 || !(out = fdopen(fd, "w"))) {
			perror("tb323fu-mesa-smoke: stdout");
			return 1;
		}
	}

	struct smoke_ctx ctx = {.opt = &opt};
	json_object *list = json_object_new_array();
	int counts[3] = {0};
	for (size_t i = 0; i < N_TESTS; i++) {
		const struct test *t = &tests[i];
		struct smoke_result r = {.status = SMOKE_FAIL};
		if (stream) {
			json_object *ev = json_object_new_object();
			json_object_object_add(ev, "event", json_object_new_string("start"));
			json_object_object_add(ev, "name", json_object_new_string(t->name));
			emit(out, ev);
			json_object_put(ev);
		}
		double t0 = now_ms();
		if (t->opencl ? opt.no_opencl : opt.no_vulkan)
			smoke_set(&r, SMOKE_SKIP, "the release ships no %s driver",
				  t->opencl ? "OpenCL" : "Vulkan");
		else
			t->run(&ctx, &r);
		int64_t ms = (int64_t)(now_ms() - t0 + 0.5);
		counts[r.status]++;
		json_object *res = result_json(t->name, &r, ms);
		if (stream) {
			json_object *ev = json_object_new_object();
			json_object_object_add(ev, "event", json_object_new_string("result"));
			json_object_object_foreach(res, key, val)
				json_object_object_add(ev, key, json_object_get(val));
			emit(out, ev);
			json_object_put(ev);
		}
		if (!json && !stream)
			printf("%-12s %-4s %5lld ms  %s\n", t->name, status_names[r.status],
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
