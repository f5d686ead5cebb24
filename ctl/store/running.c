/* Publication of the running operation (docs/design.md §13). One command runs per process, so
 * the accounting is this file's own state. */
#include "store/running.h"
#include "base/jsontext.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "common/storelayout.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The steps of a command and the share of the whole each takes, in order. */
struct step_share {
	const char *step;
	int from, to;
};
struct plan {
	const char *command;
	struct step_share steps[5];
};

static const struct plan plans[] = {
	{"check", {{"checking", 0, 100}}},
	{"auto-check", {{"checking", 0, 5}, {"downloading", 5, 75}, {"verifying", 75, 100}}},
	{"download", {{"checking", 0, 5}, {"downloading", 5, 75}, {"verifying", 75, 100}}},
	{"update", {{"checking", 0, 5}, {"downloading", 5, 50}, {"verifying", 50, 70},
		    {"installing", 70, 75}, {"smoke-testing", 75, 100}}},
	{"install", {{"installing", 0, 10}, {"smoke-testing", 10, 100}}},
	{"install-local", {{"verifying", 0, 55}, {"installing", 55, 60}, {"smoke-testing", 60, 100}}},
	{"smoke", {{"smoke-testing", 0, 100}}},
	{"bench", {{"benchmarking", 0, 100}}},
	{"verify", {{"verifying", 0, 100}}},
	{"on", {{"switching", 0, 100}}},
	{"off", {{"switching", 0, 100}}},
	{"boot-tick", {{"switching", 0, 100}}},
	{"keep", {{"keeping", 0, 100}}},
	{"rollback", {{"rolling-back", 0, 100}}},
	{"remove", {{"installing", 0, 100}}},
	{"takeover", {{"installing", 0, 100}}},
};

/* Smoke tests a run reports (docs/design.md §7); the share of each in its step. */
#define SMOKE_TESTS 6

static struct {
	const char *command;
	const struct plan *plan;
	int step;    /* index into plan->steps, -1 before the first */
	int percent; /* never decreasing */
	int tests_done;
	unsigned stalled_s; /* of the running download; 0 while bytes flow or none runs */
	/* a run of counted items (a suite's sides, bench's runs) in the current step: the percent
	 * it started from, and each side's done and total */
	int count_step, count_from;
	uint64_t count_done[2], count_total[2];
	const struct tb_progress *inner;
	char *root;
	int lock_fd; /* a duplicate of the store's lock: held until last-operation is written */
	int reader;  /* published as a reader's record, not <root>/running */
	double published_at;
	int published_percent, published_step;
	unsigned published_stalled;
} run = {.step = -1, .lock_fd = -1, .count_step = -1};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Written without fsync: the file says what runs now and means nothing after a crash (the
 * reader ignores a file whose process is gone). The temporary is the atomic writer's
 * (base/fs.h), a name the next writer removes as a leftover: never a link or file planted
 * there. */
static void write_quick(const char *path, const char *text)
{
	struct atomic_out o;
	struct tb_error ignored = {0};
	if (atomic_out_open(&o, path, 0644, &ignored))
		return;
	if (atomic_out_write(&o, text, strlen(text), &ignored))
		atomic_out_abort(&o);
	else
		atomic_out_commit(&o, 0, &ignored);
}

/* Writes o as one line to <store>/name, and drops it. */
static void publish_json(json_object *o, const char *name)
{
	char *path = path_join(run.root, name);
	char *text = xasprintf("%s\n", json_out(o, JSON_C_TO_STRING_PLAIN));
	write_quick(path, text);
	free(text);
	free(path);
	json_object_put(o);
}

/* This process's start time in clock ticks since boot (/proc/PID/stat's 22nd field), 0 when
 * it cannot be read: with the pid, a process no other one can be taken for. */
static unsigned long long start_time(long pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	char *p = strrchr(buf, ')'); /* the name may hold spaces and parentheses */
	unsigned long long t = 0;
	/* after the name: state, then fields 4 to 21, then the start time */
	if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &t) != 1)
		return 0;
	return t;
}

static char *record_name(void)
{
	return run.reader ? xasprintf(STORE_RUNNING_READER "%d", (int)getpid()) : xstrdup(STORE_RUNNING);
}

static void publish(int force)
{
	if (!run.root || run.step < 0)
		return;
	double t = now();
	int moved = run.percent != run.published_percent || run.stalled_s != run.published_stalled;
	if (!force && (!moved || t - run.published_at < 0.25))
		return;
	run.published_at = t;
	run.published_percent = run.percent;
	run.published_step = run.step;
	run.published_stalled = run.stalled_s;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "command", json_object_new_string(run.command));
	json_object_object_add(o, "step", json_object_new_string(run.plan->steps[run.step].step));
	json_object_object_add(o, "percent", json_object_new_int(run.percent));
	json_object_object_add(o, "stalled_s", json_object_new_int((int)run.stalled_s));
	json_object_object_add(o, "pid", json_object_new_int((int)getpid()));
	if (run.reader)
		json_object_object_add(o, "start", json_object_new_int64((int64_t)start_time(getpid())));
	char *name = record_name();
	publish_json(o, name);
	free(name);
}

static void set_percent(int p)
{
	if (p > 99)
		p = 99; /* 100 is the end of the command */
	if (p > run.percent)
		run.percent = p;
}

/* Moves to the named step when the plan has it further on; returns whether it is current. */
static int enter(const char *step)
{
	if (!run.plan)
		return 0;
	for (int k = run.step < 0 ? 0 : run.step; k < 5 && run.plan->steps[k].step; k++) {
		if (strcmp(run.plan->steps[k].step, step))
			continue;
		if (k != run.step) {
			run.step = k;
			set_percent(run.plan->steps[k].from);
			publish(1);
			if (run.inner && run.inner->step)
				run.inner->step(run.inner->ctx, step, run.percent);
		}
		return 1;
	}
	return 0;
}

static void within(double fraction)
{
	if (run.step < 0)
		return;
	const struct step_share *s = &run.plan->steps[run.step];
	if (fraction > 1)
		fraction = 1;
	set_percent(s->from + (int)((s->to - s->from) * fraction));
	publish(0);
}

static void on_bytes(void *ctx, const char *op, const char *file, uint64_t done, uint64_t total,
		     unsigned stalled_s)
{
	const char *step = !strcmp(op, "download") ? "downloading" : "verifying";
	run.stalled_s = stalled_s;
	if (enter(step) && total)
		within((double)done / (double)total);
	else
		publish(0);
	progress_bytes(run.inner, op, file, done, total, stalled_s);
}

static void on_test(void *ctx, const char *name, const char *status)
{
	/* the six smoke tests move the step; a suite's tests ("SUITE:TEST") and bench's runs
	 * ("bench:…") are counted by on_count */
	if (!strchr(name, ':') && enter("smoke-testing") && strcmp(status, "run")) {
		run.tests_done++;
		within((double)run.tests_done / (SMOKE_TESTS + 1));
	}
	progress_test(run.inner, name, status);
}

static void on_done(void *ctx, const char *op, const char *file)
{
	progress_done(run.inner, op, file);
}

static void on_step(void *ctx, const char *step, int percent)
{
	enter(step);
}

/* A suite's sides ("SUITE:store", "SUITE:distribution") or bench's runs: done of total mapped
 * into what is left of the current step from where the counting began. */
static void on_count(void *ctx, const char *op, const char *name, uint64_t done, uint64_t total)
{
	if (run.step >= 0) {
		if (run.count_step != run.step) {
			run.count_step = run.step;
			run.count_from = run.percent;
			memset(run.count_done, 0, sizeof run.count_done);
			memset(run.count_total, 0, sizeof run.count_total);
		}
		const char *colon = strrchr(name, ':');
		int k = colon && !strcmp(colon, ":distribution");
		int sides = !strcmp(op, "suite") ? 2 : 1;
		run.count_done[k] = done > total ? total : done;
		run.count_total[k] = total;
		uint64_t all = 0, finished = run.count_done[0] + run.count_done[1];
		for (int i = 0; i < sides; i++)
			all += run.count_total[i] ? run.count_total[i] : total;
		if (all) {
			int to = run.plan->steps[run.step].to;
			set_percent(run.count_from + (int)((to - run.count_from) * ((double)finished / (double)all)));
			publish(0);
		}
	}
	/* bench's runs are shown by their own lines ("bench:store:1/10"), with this percent */
	if (strcmp(op, "bench"))
		progress_count(run.inner, op, name, done, total);
}

static void on_wait(void *ctx, const char *sentence)
{
	progress_wait(run.inner, sentence);
}

static const struct tb_progress wrapper = {on_bytes, on_test, on_done, NULL, on_step, on_count, on_wait};

const struct tb_progress *running_begin(const char *command, const struct tb_progress *inner)
{
	run.command = command;
	run.inner = inner;
	for (size_t i = 0; i < sizeof plans / sizeof *plans; i++)
		if (!strcmp(plans[i].command, command))
			run.plan = &plans[i];
	return &wrapper;
}

void running_attach(const char *root, int lock_fd)
{
	if (run.root || !run.plan || lock_fd < 0)
		return;
	/* The same open file description: the lock lasts until running_end closes it, so the
	 * record and last-operation are written under it even after the store is closed. */
	run.lock_fd = fcntl(lock_fd, F_DUPFD_CLOEXEC, 0);
	if (run.lock_fd < 0)
		return;
	run.root = xstrdup(root);
	if (run.step < 0)
		enter(run.plan->steps[0].step);
	publish(1);
}

void running_attach_reader(const char *root)
{
	if (run.root || !run.plan)
		return;
	run.reader = 1;
	run.root = xstrdup(root);
	if (run.step < 0)
		enter(run.plan->steps[0].step);
	publish(1);
}

int running_percent(void)
{
	return run.percent;
}

static json_object *read_json(const char *root, const char *name);
static const char *get_str(json_object *o, const char *key);
static int get_int(json_object *o, const char *key);

void running_end(int code, const char *reason, const char *message)
{
	/* a failed or interrupted command keeps the percent it reached */
	if (code == 0)
		run.percent = 100;
	if (!run.root)
		return;
	/* Remove our own publication only (the record as it is, not running_read's view of it).
	 * The store is still held through run.lock_fd, released below once last-operation is
	 * written. */
	char *name = record_name(), *path = path_join(run.root, name);
	json_object *mine = read_json(run.root, name);
	if (mine && get_int(mine, "pid") == (int)getpid() && !strcmp(get_str(mine, "command"), run.command))
		unlink(path);
	json_object_put(mine);
	free(path);
	free(name);
	/* last-operation is a writer's: a reader leaves the store as it found it (§3, Pins) */
	json_object *o = run.reader ? NULL : json_object_new_object();
	if (o) {
		json_object_object_add(o, "operation", json_object_new_string(run.command));
		json_object_object_add(o, "ok", json_object_new_boolean(code == 0));
		json_object_object_add(o, "code", json_object_new_int(code));
		json_object_object_add(o, "reason", json_object_new_string(reason ? reason : ""));
		json_object_object_add(o, "message", json_object_new_string(message ? message : ""));
		publish_json(o, STORE_LAST_OPERATION);
	}
	free(run.root);
	run.root = NULL;
	if (run.lock_fd >= 0)
		close(run.lock_fd);
	run.lock_fd = -1;
}

static const char *get_str(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
		       ? json_object_get_string(v)
		       : "";
}

static int get_int(json_object *o, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(o, key, &v) ? json_object_get_int(v) : 0;
}

static json_object *read_json(const char *root, const char *name)
{
	char *path = path_join(root, name);
	/* never followed: a link planted here must not make status read what it points at */
	char *text = read_small_file_nofollow(path, 256 * 1024, NULL);
	free(path);
	json_object *o = text ? json_tokener_parse(text) : NULL;
	free(text);
	if (o && !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

/* Whether a writer holds the store: every writer keeps an open-file-description lock on
 * .lock beside its flock (session_open), which a reader can test without taking anything
 * (a test by flock would have to take it, and make a writer starting then say busy).
 * -1: cannot tell. */
static int writer_holds_lock(const char *root)
{
	char *path = path_join(root, STORE_LOCK);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	int rc = fcntl(fd, F_OFD_GETLK, &fl);
	close(fd);
	return rc < 0 ? -1 : fl.l_type != F_UNLCK;
}

/* A record is the running writer's when the store is held and its process lives: one left by
 * a killed writer says nothing, also when its pid now belongs to another process. */
static int record_is_live(const char *root, int pid)
{
	if (pid <= 0 || (kill(pid, 0) != 0 && errno != EPERM))
		return 0;
	return writer_holds_lock(root) != 0;
}

/* The record of a reader still running: its pid's process, started when the record says (a
 * killed reader's record, or its pid used again, says nothing). The first found, or NULL. */
static json_object *live_reader(const char *root)
{
	DIR *d = opendir(root);
	if (!d)
		return NULL;
	json_object *found = NULL;
	struct dirent *de;
	size_t prefix = strlen(STORE_RUNNING_READER);
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, STORE_RUNNING_READER, prefix))
			continue;
		char *end;
		long pid = strtol(de->d_name + prefix, &end, 10);
		if (pid <= 0 || *end)
			continue;
		json_object *o = read_json(root, de->d_name), *v;
		unsigned long long start = start_time(pid);
		if (o && get_int(o, "pid") == pid && start && json_object_object_get_ex(o, "start", &v) &&
		    (unsigned long long)json_object_get_int64(v) == start)
			found = o;
		else
			json_object_put(o);
	}
	closedir(d);
	return found;
}

void running_read(const char *root, struct running_info *ri)
{
	memset(ri, 0, sizeof *ri);
	json_object *o = read_json(root, STORE_RUNNING);
	int pid = o ? get_int(o, "pid") : 0;
	if (!record_is_live(root, pid)) { /* no writer runs: a reader may */
		json_object_put(o);
		o = live_reader(root);
		pid = o ? get_int(o, "pid") : 0;
	}
	if (o && pid > 0) {
		snprintf(ri->command, sizeof ri->command, "%s", get_str(o, "command"));
		ri->pid = pid;
		snprintf(ri->step, sizeof ri->step, "%s", get_str(o, "step"));
		ri->percent = get_int(o, "percent");
		if (ri->percent < 0 || ri->percent > 100)
			ri->percent = 0;
		ri->stalled_s = get_int(o, "stalled_s");
		if (ri->stalled_s < 0)
			ri->stalled_s = 0;
	}
	json_object_put(o);
	o = read_json(root, STORE_LAST_OPERATION);
	if (o) {
		ri->last_message = xstrdup(get_str(o, "message"));
		snprintf(ri->last_command, sizeof ri->last_command, "%s", get_str(o, "operation"));
		json_object *v;
		ri->last_ok = json_object_object_get_ex(o, "ok", &v) && json_object_get_boolean(v);
	}
	json_object_put(o);
}

char *running_holder(const char *root)
{
	struct running_info ri;
	running_read(root, &ri);
	/* the process described, not a command to type: "tb323fu-ctl install", never with mesa */
	char *who = ri.command[0] ? xasprintf("pid %d (tb323fu-ctl %s, %s)", ri.pid, ri.command, ri.step[0] ? ri.step : "starting")
				  : xstrdup("another tb323fu-ctl");
	running_info_free(&ri);
	return who;
}

void running_wait_notice(const char *sentence)
{
	progress_wait(run.inner, sentence);
}

void running_info_free(struct running_info *ri)
{
	free(ri->last_message);
	ri->last_message = NULL;
}
