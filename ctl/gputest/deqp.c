/* dEQP (dEQP-VK, the GL modules) as an optional, deeper smoke test: run a case list, restart
 * after the case that crashed or hung, and count the QPA log (gputest/qpa.c reads it). */
#include "gputest/deqp.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gputest/child.h"
#include "gputest/side.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/trusted_path.h"

#define CASELIST_MAX_BYTES (64u << 20)
/* Runs in a row that finish no case of the list before the runner stops restarting dEQP. */
#define DEQP_IDLE_RUNS 3

struct caselist {
	char **names;  /* in file order */
	char **sorted; /* the same pointers, sorted, for lookups */
	unsigned char *done; /* by index into sorted */
	size_t n;
	int restartable; /* plain names only: the remaining ones can be listed again */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void caselist_free(struct caselist *l);

/* The list of path; *kind (when NULL) becomes the module of its first name, and sentences name
 * it ("dEQP" while none is known). */
static int caselist_load(struct caselist *l, const char *path, const struct deqp_kind **kind,
			 struct tb_error *e)
{
	memset(l, 0, sizeof *l);
	size_t len;
	char *text = read_small_file(path, CASELIST_MAX_BYTES, &len);
	if (!text)
		return tb_fail_errno(e, TB_R_USAGE, "cannot read the case list %s", path);
	l->restartable = 1;
	size_t cap = 0;
	for (char *save = NULL, *tok = strtok_r(text, "\n", &save); tok;
	     tok = strtok_r(NULL, "\n", &save)) {
		while (*tok == ' ' || *tok == '\t')
			tok++;
		size_t n = strlen(tok);
		while (n && (tok[n - 1] == '\r' || tok[n - 1] == ' ' || tok[n - 1] == '\t'))
			tok[--n] = '\0';
		if (!n || tok[0] == '#')
			continue;
		if (!*kind)
			*kind = deqp_kind_of_case(tok);
		if (n > QPA_MAX_NAME) {
			int rc = tb_fail(e, TB_R_USAGE, "the case list %s names a case of %zu bytes "
					 "(\"%.60s...\"); %s case names have at most %d",
					 path, n, tok, *kind ? (*kind)->name : "dEQP", QPA_MAX_NAME);
			free(text);
			caselist_free(l);
			return rc;
		}
		if (strpbrk(tok, "*{} \t"))
			l->restartable = 0;
		if (l->n == cap) {
			cap = cap ? 2 * cap : 256;
			l->names = xrealloc(l->names, cap * sizeof *l->names);
		}
		l->names[l->n++] = xstrdup(tok);
	}
	free(text);
	if (!l->n)
		return tb_fail(e, TB_R_USAGE, "the case list %s names no test case", path);
	l->sorted = xmalloc(l->n * sizeof *l->sorted);
	memcpy(l->sorted, l->names, l->n * sizeof *l->names);
	qsort(l->sorted, l->n, sizeof *l->sorted, cmp_str);
	l->done = xcalloc(l->n, 1);
	return TB_OK;
}

static void caselist_free(struct caselist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	free(l->sorted);
	free(l->done);
}

static long caselist_find(const struct caselist *l, const char *name)
{
	char *const *hit = bsearch(&name, l->sorted, l->n, sizeof *l->sorted, cmp_str);
	return hit ? (long)(hit - l->sorted) : -1;
}

static int caselist_is_done(const struct caselist *l, const char *name)
{
	long i = caselist_find(l, name);
	return i >= 0 && l->done[i];
}

/* Appends what was added to the log since the last call. */
static void read_log(int *fd, const char *path, struct qpa_parser *q)
{
	if (*fd < 0)
		*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return;
	char buf[65536];
	ssize_t n;
	while ((n = read(*fd, buf, sizeof buf)) > 0)
		qpa_parser_feed(q, buf, (size_t)n);
}

struct one_run {
	int status;
	int timed_out;
	int budget; /* the deadline stopped it, not a case */
	struct child_tail tail; /* dEQP's stdout and stderr, for messages */
};

/* What run_once watches while dEQP runs: its log, and whether a case makes progress. */
struct watch {
	int log_fd;
	const char *log_path;
	struct qpa_parser *q;
	size_t seen_cases;
	int seen_open;
	double last_progress;
	int case_timeout;
	size_t max_cases; /* a process logging more is stopped: its log is not the list's */
	struct child_tail *tail;
};

static void to_tail(void *ctx, const char *data, size_t n)
{
	struct watch *w = ctx;
	child_tail_add(w->tail, data, n);
}

/* Reads the log even when dEQP prints nothing; a case that makes no progress for
 * case_timeout seconds stops the run. */
static int log_tick(void *ctx)
{
	struct watch *w = ctx;
	read_log(&w->log_fd, w->log_path, w->q);
	if (w->q->n != w->seen_cases || w->q->open != w->seen_open) {
		w->seen_cases = w->q->n;
		w->seen_open = w->q->open;
		w->last_progress = now_seconds();
	}
	return now_seconds() - w->last_progress > w->case_timeout || w->q->n > w->max_cases;
}

/* Runs dEQP once over list_path, feeding its log into q as it grows. */
static int run_once(const struct deqp_request *r, const struct deqp_kind *kind, const char *deqp,
		    const char *dir, const char *list_path, const char *log_path, size_t list_len,
		    struct qpa_parser *q, struct one_run *out, struct tb_error *e)
{
	char *list_arg = xasprintf("--deqp-caselist-file=%s", list_path);
	char *log_arg = xasprintf("--deqp-log-filename=%s", log_path);
	/* No shader cache: dEQP would write it beside the binary, shared by every run. */
	char *args[] = {list_arg, log_arg, "--deqp-log-images=disable", "--deqp-log-shader-sources=disable",
			"--deqp-shadercache=disable", NULL};
	char **argv = deqp_command(kind, r->prefix, deqp, args, e);
	free(list_arg);
	free(log_arg);
	memset(out, 0, sizeof *out);
	struct child child;
	int rc = argv ? child_start(&child, argv, dir, e) : e->code;
	deqp_command_free(argv);
	if (rc)
		return rc;

	struct watch w = {.log_fd = -1, .log_path = log_path, .q = q, .seen_cases = q->n,
			  .seen_open = q->open, .last_progress = now_seconds(),
			  .case_timeout = r->case_timeout, .max_cases = q->n + 2 * list_len + 16,
			  .tail = &out->tail};
	struct child_watch cw = {.out = to_tail, .err_tail = &out->tail, .tick = log_tick,
				 .tick_ms = 200, .ctx = &w, .deadline = r->deadline};
	int end = child_supervise(&child, &cw, &out->status);
	out->timed_out = end == CHILD_TIMED_OUT;
	out->budget = end == CHILD_TIMED_OUT && r->deadline > 0 && now_seconds() >= r->deadline;
	int log_fd = w.log_fd;
	read_log(&log_fd, log_path, q);
	if (log_fd >= 0)
		close(log_fd);
	if (end != CHILD_INTERRUPTED)
		return TB_OK;
	char *what = xasprintf("%s ran", kind ? kind->name : "dEQP");
	rc = tb_check_interrupted(e, what);
	free(what);
	return rc;
}

static int write_remaining(const struct caselist *l, const char *path, struct tb_error *e)
{
	struct strbuf sb = {0};
	for (size_t i = 0; i < l->n; i++)
		if (!caselist_is_done(l, l->names[i])) {
			sb_append(&sb, l->names[i]);
			sb_append(&sb, "\n");
		}
	int rc = atomic_write_file(path, sb.buf ? sb.buf : "", sb.len, 0644, e);
	sb_free(&sb);
	return rc;
}

/* Marks the cases of the list that the log has from index from on as done; returns how many
 * of them were not done before. */
static size_t mark_done(struct caselist *l, const struct qpa_parser *q, size_t from)
{
	size_t finished = 0;
	for (size_t i = from; i < q->n; i++) {
		long k = caselist_find(l, q->cases[i].name);
		if (k >= 0 && !l->done[k]) {
			l->done[k] = 1;
			finished++;
		}
	}
	return finished;
}

/* Forgets the cases logged from index from on. */
static void drop_cases(struct qpa_parser *q, size_t from)
{
	while (q->n > from) {
		q->n--;
		free(q->cases[q->n].name);
		free(q->cases[q->n].detail);
	}
}

/* Why the cases left were not run: how dEQP last ended and, when it logged a case the list
 * does not have (another name, or one cut at QPA_MAX_NAME), that name. */
static char *why_not_run(const struct caselist *l, const struct qpa_parser *q, size_t from,
			 const char *name, const char *how, const char *last)
{
	const char *foreign = NULL;
	for (size_t i = from; i < q->n && !foreign; i++)
		if (caselist_find(l, q->cases[i].name) < 0)
			foreign = q->cases[i].name;
	if (foreign)
		return xasprintf("not run: %s kept logging \"%.120s%s\", which is not in the case "
				 "list, instead of the next case; it ended with %s", name, foreign,
				 strlen(foreign) > 120 ? "..." : "", how);
	return xasprintf("not run: %s ended with %s%s%s", name, how, last[0] ? ": " : "", last);
}

int deqp_run(const struct deqp_request *r, struct qpa_parser *q, struct tb_error *e)
{
	const struct deqp_kind *kind = r->kind;
	char *list0 = realpath(r->caselist, NULL);
	struct caselist l;
	int rc = list0 ? caselist_load(&l, list0, &kind, e)
		       : tb_fail_errno(e, TB_R_USAGE, "cannot read the case list %s", r->caselist);
	if (rc) {
		free(list0);
		return rc;
	}
	const char *name = kind ? kind->name : "dEQP";
	char *what = xasprintf("the %s binary", name);
	char *deqp = realpath(r->deqp, NULL);
	if (!deqp || access(deqp, X_OK) != 0)
		rc = tb_fail_errno(e, TB_R_USAGE, "cannot run %s %s", what, r->deqp);
	else if (trusted_program_path(r->deqp, what, e) != TB_OK)
		rc = e->code;
	free(what);
	if (rc) {
		free(deqp);
		free(list0);
		caselist_free(&l);
		return rc;
	}
	char *dir = xstrdup(deqp);
	*strrchr(dir, '/') = '\0';
	if (!*dir)
		strcpy(dir, "/");
	q->progress = r->progress;

	for (int run = 1, idle = 0; !rc; run++) {
		char *list = run == 1 ? xstrdup(list0) : xasprintf("%s/caselist-%d.txt", r->workdir, run);
		char *log = xasprintf("%s/run-%d.qpa", r->workdir, run);
		if (run > 1)
			rc = write_remaining(&l, list, e);
		size_t before = q->n, left = 0;
		for (size_t i = 0; i < l.n; i++)
			left += !l.done[i];
		struct one_run res;
		if (!rc)
			rc = run_once(r, kind, deqp, dir, list, log, left, q, &res, e);
		free(list);
		free(log);
		if (rc)
			break;
		if (res.budget) {
			/* the open case was cut short, not by itself: no result */
			qpa_parser_drop_open(q);
			if (r->out_of_budget)
				*r->out_of_budget = 1;
			mark_done(&l, q, before);
			break;
		}
		char how[160], last[200], detail[400];
		child_describe_status(res.status, how, sizeof how);
		child_tail_last_line(&res.tail, last, sizeof last);
		if (res.timed_out)
			snprintf(detail, sizeof detail, "no result within %d s; %s was killed",
				 r->case_timeout, name);
		else
			snprintf(detail, sizeof detail, "%s died with %s%s%s", name, how,
				 last[0] ? ": " : "", last);
		qpa_parser_finish(q, res.timed_out ? QPA_TIMEOUT : QPA_CRASH, detail);
		size_t finished = mark_done(&l, q, before);
		left = 0;
		for (size_t i = 0; i < l.n; i++)
			left += !l.done[i];
		if (!left || !l.restartable)
			break;
		if (q->n == 0) {
			rc = tb_fail(e, TB_R_PROGRAM_FAILED, "%s ran no test case (%s%s%s)", name, how,
				     last[0] ? ": " : "", last);
		} else if (q->n == before || (!finished && ++idle >= DEQP_IDLE_RUNS)) {
			/* No progress: dEQP does not run these cases. */
			char *why = why_not_run(&l, q, before, name, how, last);
			drop_cases(q, before);
			for (size_t i = 0; i < l.n; i++)
				if (!caselist_is_done(&l, l.names[i]))
					qpa_add_case(q, l.names[i], QPA_OTHER, "NotRun", why);
			free(why);
			break;
		} else if (!finished) {
			drop_cases(q, before); /* nothing of the list: named when the runner stops */
		} else {
			idle = 0;
		}
	}
	if (!rc && q->n == 0 && !(r->out_of_budget && *r->out_of_budget))
		rc = tb_fail(e, TB_R_PROGRAM_FAILED, "%s ran no test case of %s; check the case list and "
			     "the binary", name, r->caselist);
	caselist_free(&l);
	free(dir);
	free(deqp);
	free(list0);
	return rc;
}
