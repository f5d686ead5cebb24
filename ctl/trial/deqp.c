/* dEQP-VK as an optional, deeper smoke test: run a case list, count the QPA log.
 *
 * The QPA log is read line by line, looking only at the few markers that carry results
 * (#beginTestCaseResult, <Result StatusCode=…>, <Number Name="TestDuration">,
 * #endTestCaseResult, #terminateTestCaseResult). The XML between the markers is not parsed:
 * a crashed or killed process leaves it truncated, which an XML parser would reject, and
 * dEQP itself writes each of those elements on one line. */
#include "trial/deqp.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trial/child.h"
#include "trial/smoke_run.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"

#define QPA_MAX_LINE 65536
#define QPA_MAX_NAME 512
#define QPA_MAX_DETAIL 400
#define CASELIST_MAX_BYTES (64u << 20)
/* Runs in a row that finish no case of the list before the runner stops restarting dEQP. */
#define DEQP_IDLE_RUNS 3

static const char *const kind_names[QPA_KINDS] = {
	"Pass", "Fail", "NotSupported", "QualityWarning", "CompatibilityWarning",
	"Crash", "Timeout", "Other",
};

const char *qpa_kind_name(enum qpa_kind k)
{
	return k < QPA_KINDS ? kind_names[k] : "Other";
}

const char *qpa_kind_status(enum qpa_kind k)
{
	switch (k) {
	case QPA_PASS:
	case QPA_QUALITY_WARNING:
	case QPA_COMPATIBILITY_WARNING:
		return "pass";
	case QPA_NOT_SUPPORTED:
		return "skip";
	default:
		return "fail";
	}
}

static enum qpa_kind kind_of_code(const char *code)
{
	if (!strcmp(code, "Waiver"))
		return QPA_NOT_SUPPORTED;
	for (int k = 0; k < QPA_OTHER; k++)
		if (!strcmp(code, kind_names[k]))
			return (enum qpa_kind)k;
	return QPA_OTHER;
}

void qpa_parser_init(struct qpa_parser *q)
{
	memset(q, 0, sizeof *q);
}

void qpa_parser_free(struct qpa_parser *q)
{
	for (size_t i = 0; i < q->n; i++) {
		free(q->cases[i].name);
		free(q->cases[i].detail);
	}
	free(q->cases);
	free(q->line);
	memset(q, 0, sizeof *q);
}

/* Copies at most max bytes of s[0..n) as printable text (control bytes become spaces). */
static char *clean_copy(const char *s, size_t n, size_t max)
{
	if (n > max)
		n = max;
	char *out = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];
		out[i] = (ch < 0x20 || ch == 0x7f) ? ' ' : (char)ch;
	}
	out[n] = '\0';
	return out;
}

static void set_code(struct qpa_case *c, const char *s, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; i < n && j + 1 < sizeof c->code; i++) {
		char ch = s[i];
		if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
		    ch == '_')
			c->code[j++] = ch;
	}
	c->code[j] = '\0';
}

static struct qpa_case *push_case(struct qpa_parser *q, const char *name, size_t n)
{
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 64;
		q->cases = xrealloc(q->cases, q->cap * sizeof *q->cases);
	}
	struct qpa_case *c = &q->cases[q->n++];
	memset(c, 0, sizeof *c);
	c->name = clean_copy(name, n, QPA_MAX_NAME);
	c->kind = QPA_CRASH;
	return c;
}

static void set_detail(struct qpa_case *c, const char *text)
{
	free(c->detail);
	c->detail = clean_copy(text, strlen(text), QPA_MAX_DETAIL);
}

static void end_case(struct qpa_parser *q)
{
	struct qpa_case *c = &q->cases[q->n - 1];
	q->open = 0;
	q->have_result = 0;
	progress_test(q->progress, c->name, qpa_kind_status(c->kind));
}

void qpa_add_case(struct qpa_parser *q, const char *name, enum qpa_kind kind, const char *code,
		  const char *detail)
{
	struct qpa_case *c = push_case(q, name, strlen(name));
	c->kind = kind;
	set_code(c, code, strlen(code));
	set_detail(c, detail);
	progress_test(q->progress, c->name, qpa_kind_status(kind));
}

/* The text of <Result …>text</Result>, with XML's five entities decoded. */
static char *result_text(const char *p, const char *end)
{
	const char *close = memmem(p, (size_t)(end - p), "</Result>", 9);
	if (close)
		end = close;
	struct strbuf sb = {0};
	static const struct { const char *entity, *ch; } entities[] = {
		{"&lt;", "<"}, {"&gt;", ">"}, {"&amp;", "&"}, {"&quot;", "\""}, {"&apos;", "'"},
	};
	while (p < end && sb.len < QPA_MAX_DETAIL) {
		int done = 0;
		if (*p == '&')
			for (size_t k = 0; k < sizeof entities / sizeof entities[0] && !done; k++) {
				size_t len = strlen(entities[k].entity);
				if ((size_t)(end - p) >= len && !memcmp(p, entities[k].entity, len)) {
					sb_append(&sb, entities[k].ch);
					p += len;
					done = 1;
				}
			}
		if (!done) {
			char ch[2] = {(unsigned char)*p < 0x20 ? ' ' : *p, '\0'};
			sb_append(&sb, ch);
			p++;
		}
	}
	char *s = sb.buf ? sb.buf : xstrdup("");
	return s;
}

static int starts_with_marker(const char *line, size_t n, const char *marker, const char **rest)
{
	size_t m = strlen(marker);
	if (n < m || memcmp(line, marker, m))
		return 0;
	if (n > m && line[m] != ' ' && line[m] != '\t')
		return 0;
	*rest = line + m;
	return 1;
}

static void handle_line(struct qpa_parser *q, const char *line, size_t n)
{
	while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
		n--;
	const char *end = line + n, *rest;
	if (starts_with_marker(line, n, "#beginTestCaseResult", &rest)) {
		while (rest < end && (*rest == ' ' || *rest == '\t'))
			rest++;
		const char *name_end = rest;
		while (name_end < end && *name_end != ' ' && *name_end != '\t')
			name_end++;
		if (name_end == rest)
			return;
		if (q->open) {
			struct qpa_case *prev = &q->cases[q->n - 1];
			prev->kind = QPA_CRASH;
			set_code(prev, "Crash", 5);
			set_detail(prev, "the log began the next case before this one ended");
			end_case(q);
		}
		push_case(q, rest, (size_t)(name_end - rest));
		q->open = 1;
		q->have_result = 0;
		return;
	}
	if (!q->open)
		return;
	struct qpa_case *c = &q->cases[q->n - 1];
	if (starts_with_marker(line, n, "#endTestCaseResult", &rest)) {
		if (!q->have_result) {
			c->kind = QPA_FAIL;
			set_code(c, "Fail", 4);
			set_detail(c, "the log has no result for this case");
		}
		end_case(q);
	} else if (starts_with_marker(line, n, "#terminateTestCaseResult", &rest)) {
		while (rest < end && (*rest == ' ' || *rest == '\t'))
			rest++;
		set_code(c, rest, (size_t)(end - rest));
		c->kind = !strcmp(c->code, "Timeout") ? QPA_TIMEOUT : QPA_CRASH;
		char *why = xasprintf("dEQP terminated the case: %s", c->code[0] ? c->code : "no reason");
		set_detail(c, why);
		free(why);
		end_case(q);
	} else {
		const char *tag = memmem(line, n, "<Result", 7);
		const char *attr = tag ? memmem(tag, (size_t)(end - tag), "StatusCode=\"", 12) : NULL;
		if (attr) {
			attr += 12;
			const char *quote = memchr(attr, '"', (size_t)(end - attr));
			if (!quote)
				return;
			set_code(c, attr, (size_t)(quote - attr));
			c->kind = kind_of_code(c->code);
			const char *gt = memchr(quote, '>', (size_t)(end - quote));
			free(c->detail);
			c->detail = gt ? result_text(gt + 1, end) : xstrdup("");
			q->have_result = 1;
			return;
		}
		const char *dur = memmem(line, n, "Name=\"TestDuration\"", 19);
		const char *gt = dur ? memchr(dur, '>', (size_t)(end - dur)) : NULL;
		if (gt) {
			long long us = 0;
			for (const char *p = gt + 1; p < end && *p >= '0' && *p <= '9'; p++)
				us = us < LLONG_MAX / 10 - 10 ? us * 10 + (*p - '0') : us;
			c->ms = us / 1000;
		}
	}
}

void qpa_parser_feed(struct qpa_parser *q, const char *data, size_t len)
{
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t take = nl ? (size_t)(nl - data) : len;
		/* Keep the start of an over-long line: the markers are at its beginning. */
		size_t room = QPA_MAX_LINE - q->line_len;
		size_t keep = take < room ? take : room;
		if (keep) {
			if (!q->line)
				q->line = xmalloc(QPA_MAX_LINE + 1);
			memcpy(q->line + q->line_len, data, keep);
			q->line_len += keep;
		}
		if (take > keep)
			q->line_cut = 1;
		if (!nl)
			return;
		handle_line(q, q->line ? q->line : "", q->line_len);
		q->line_len = 0;
		q->line_cut = 0;
		data = nl + 1;
		len -= take + 1;
	}
}

void qpa_parser_finish(struct qpa_parser *q, enum qpa_kind kind, const char *detail)
{
	if (q->line_len) {
		handle_line(q, q->line, q->line_len);
		q->line_len = 0;
		q->line_cut = 0;
	}
	if (q->open) {
		struct qpa_case *c = &q->cases[q->n - 1];
		c->kind = kind;
		set_code(c, qpa_kind_name(kind), strlen(qpa_kind_name(kind)));
		set_detail(c, detail && *detail ? detail : "the log ends inside this case");
		end_case(q);
	}
}

void qpa_count(const struct qpa_parser *q, size_t counts[QPA_KINDS])
{
	memset(counts, 0, QPA_KINDS * sizeof counts[0]);
	for (size_t i = 0; i < q->n; i++)
		counts[q->cases[i].kind < QPA_KINDS ? q->cases[i].kind : QPA_OTHER]++;
}

json_object *qpa_result_json(const struct qpa_parser *q, const char *version)
{
	int passed = 0, failed = 0, skipped = 0;
	json_object *tests = json_object_new_array();
	for (size_t i = 0; i < q->n; i++) {
		const struct qpa_case *c = &q->cases[i];
		const char *status = qpa_kind_status(c->kind);
		passed += !strcmp(status, "pass");
		failed += !strcmp(status, "fail");
		skipped += !strcmp(status, "skip");
		const char *code = c->code[0] ? c->code : qpa_kind_name(c->kind);
		const char *text = c->detail ? c->detail : "";
		char *detail = (!*text || !strcmp(text, code)) ? xstrdup(code)
							       : xasprintf("%s: %s", code, text);
		json_object *t = json_object_new_object();
		json_object_object_add(t, "name", json_object_new_string(c->name));
		json_object_object_add(t, "status", json_object_new_string(status));
		json_object_object_add(t, "ms", json_object_new_int64(c->ms));
		json_object_object_add(t, "detail", json_object_new_string(detail));
		json_object_array_add(tests, t);
		free(detail);
	}
	size_t counts[QPA_KINDS];
	qpa_count(q, counts);
	json_object *by_kind = json_object_new_object();
	for (int k = 0; k < QPA_KINDS; k++)
		json_object_object_add(by_kind, kind_names[k], json_object_new_int64((int64_t)counts[k]));
	json_object *o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string(version ? version : ""));
	json_object_object_add(o, "passed", json_object_new_int(passed));
	json_object_object_add(o, "failed", json_object_new_int(failed));
	json_object_object_add(o, "skipped", json_object_new_int(skipped));
	json_object_object_add(o, "tests", tests);
	json_object_object_add(o, "counts", by_kind);
	return o;
}

/* ---- the runner ---- */

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

static int caselist_load(struct caselist *l, const char *path, struct tb_error *e)
{
	memset(l, 0, sizeof *l);
	size_t len;
	char *text = read_small_file(path, CASELIST_MAX_BYTES, &len);
	if (!text)
		return tb_fail_errno(e, TB_EUSAGE, "cannot read the case list %s", path);
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
		if (n > QPA_MAX_NAME) {
			int rc = tb_fail(e, TB_EUSAGE, "the case list %s names a case of %zu bytes "
					 "(\"%.60s...\"); dEQP-VK case names have at most %d",
					 path, n, tok, QPA_MAX_NAME);
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
		return tb_fail(e, TB_EUSAGE, "the case list %s names no test case", path);
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
	return now_seconds() - w->last_progress > w->case_timeout;
}

/* Runs dEQP once over list_path, feeding its log into q as it grows. */
static int run_once(const struct deqp_request *r, const char *deqp, const char *dir,
		    const char *list_path, const char *log_path, struct qpa_parser *q,
		    struct one_run *out, struct tb_error *e)
{
	char *list_arg = xasprintf("--deqp-caselist-file=%s", list_path);
	char *log_arg = xasprintf("--deqp-log-filename=%s", log_path);
	char *cmd[] = {(char *)deqp, list_arg, log_arg, "--deqp-log-images=disable",
		       "--deqp-log-shader-sources=disable", NULL};
	char **argv = NULL;
	if (r->prefix) {
		size_t n = 0;
		while (r->prefix[n])
			n++;
		argv = xcalloc(n + 6, sizeof *argv);
		for (size_t i = 0; i < n; i++)
			argv[i] = xstrdup(r->prefix[i]);
		for (size_t i = 0; cmd[i]; i++)
			argv[n + i] = xstrdup(cmd[i]);
	} else {
		argv = xcalloc(6, sizeof *argv);
		for (size_t i = 0; cmd[i]; i++)
			argv[i] = xstrdup(cmd[i]);
	}
	free(list_arg);
	free(log_arg);
	memset(out, 0, sizeof *out);
	struct child child;
	int rc = child_start(&child, argv, dir, e);
	smoke_free_argv(argv);
	if (rc)
		return rc;

	struct watch w = {.log_fd = -1, .log_path = log_path, .q = q, .seen_cases = q->n,
			  .seen_open = q->open, .last_progress = now_seconds(),
			  .case_timeout = r->case_timeout, .tail = &out->tail};
	struct child_watch cw = {.out = to_tail, .err_tail = &out->tail, .tick = log_tick,
				 .tick_ms = 200, .ctx = &w};
	int end = child_supervise(&child, &cw, &out->status);
	out->timed_out = end == CHILD_TIMED_OUT;
	int log_fd = w.log_fd;
	read_log(&log_fd, log_path, q);
	if (log_fd >= 0)
		close(log_fd);
	return end == CHILD_INTERRUPTED ? tb_check_interrupted(e, "dEQP-VK ran") : TB_OK;
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
			 const char *how, const char *last)
{
	const char *foreign = NULL;
	for (size_t i = from; i < q->n && !foreign; i++)
		if (caselist_find(l, q->cases[i].name) < 0)
			foreign = q->cases[i].name;
	if (foreign)
		return xasprintf("not run: dEQP-VK kept logging \"%.120s%s\", which is not in the case "
				 "list, instead of the next case; it ended with %s", foreign,
				 strlen(foreign) > 120 ? "..." : "", how);
	return xasprintf("not run: dEQP-VK ended with %s%s%s", how, last[0] ? ": " : "", last);
}

int deqp_run(const struct deqp_request *r, struct qpa_parser *q, struct tb_error *e)
{
	char *deqp = realpath(r->deqp, NULL);
	if (!deqp || access(deqp, X_OK) != 0) {
		int rc = tb_fail_errno(e, TB_EUSAGE, "cannot run the dEQP-VK binary %s", r->deqp);
		free(deqp);
		return rc;
	}
	char *list0 = realpath(r->caselist, NULL);
	struct caselist l;
	int rc = list0 ? caselist_load(&l, list0, e)
		       : tb_fail_errno(e, TB_EUSAGE, "cannot read the case list %s", r->caselist);
	if (rc) {
		free(deqp);
		free(list0);
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
		size_t before = q->n;
		struct one_run res;
		if (!rc)
			rc = run_once(r, deqp, dir, list, log, q, &res, e);
		free(list);
		free(log);
		if (rc)
			break;
		char how[160], last[200], detail[400];
		child_describe_status(res.status, how, sizeof how);
		child_tail_last_line(&res.tail, last, sizeof last);
		if (res.timed_out)
			snprintf(detail, sizeof detail, "no result within %d s; dEQP-VK was killed",
				 r->case_timeout);
		else
			snprintf(detail, sizeof detail, "dEQP-VK died with %s%s%s", how,
				 last[0] ? ": " : "", last);
		qpa_parser_finish(q, res.timed_out ? QPA_TIMEOUT : QPA_CRASH, detail);
		size_t finished = mark_done(&l, q, before);
		size_t left = 0;
		for (size_t i = 0; i < l.n; i++)
			left += !l.done[i];
		if (!left || !l.restartable)
			break;
		if (q->n == 0) {
			rc = tb_fail(e, TB_EFAIL, "dEQP-VK ran no test case (%s%s%s)", how,
				     last[0] ? ": " : "", last);
		} else if (q->n == before || (!finished && ++idle >= DEQP_IDLE_RUNS)) {
			/* No progress: dEQP does not run these cases. */
			char *why = why_not_run(&l, q, before, how, last);
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
	if (!rc && q->n == 0)
		rc = tb_fail(e, TB_EFAIL, "dEQP-VK ran no test case of %s; check the case list and "
			     "the binary", r->caselist);
	caselist_free(&l);
	free(dir);
	free(deqp);
	free(list0);
	return rc;
}
