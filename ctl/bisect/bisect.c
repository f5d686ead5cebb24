/* bisect: the first bad version between a good and a bad one (bisect/bisect.h). */
#include "bisect/bisect.h"
#include "store/layout.h"
#include "lifecycle/acquire.h"
#include "release/feed.h"
#include "store/manifest.h"
#include "store/marks.h"
#include "store/pins.h"
#include "store/state.h"
#include "gputest/bench.h"
#include "gputest/bench_stats.h"
#include "gputest/child.h"
#include "gputest/deqp_cases.h"
#include "gputest/side.h"
#include "gputest/smoke_run.h"
#include "gputest/suite.h"
#include "gputest/suite_compare.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/strbuf.h"
#include "base/testhook.h"
#include "base/programs.h"
#include "base/trusted_path.h"
#include "common/smoketests.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A version of the range: in the store, or offered by the release list. */
struct candidate {
	char *version;
	int installed;
	const struct feed_release *rel;
	enum bisect_verdict verdict;
};

struct bisection {
	const struct config *cfg;
	struct store *s;
	struct store ws; /* the work folder, a store of its own */
	const struct bisect_request *q;
	struct bisect_result *r;
	struct feed feed;
	struct candidate *c;
	size_t n;
	char *case_list; /* the one dEQP case, as a case list in the work folder */
	struct pin *pins; /* of the installed versions of the range, while it runs */
	size_t n_pins;
	struct bisect_plan plan;
	int log_fd; /* the work folder's STORE_BISECT_RUNNING_LOG; -1 before it is open */
	struct store *good_where; /* --bench: the store holding the good end, once prepared */
	char *bench_cmd;          /* --bench: what each run starts (the command, or clpeak's) */
	char *bench_xml;          /* --bench --tests: clpeak's XML file in the work folder */
};

static int by_version(const void *a, const void *b)
{
	return version_compare(((const struct candidate *)a)->version,
			       ((const struct candidate *)b)->version);
}

static struct candidate *find(struct bisection *b, const char *version)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->c[i].version, version))
			return &b->c[i];
	return NULL;
}

static void add(struct bisection *b, const char *version, int installed, const struct feed_release *rel)
{
	struct candidate *have = find(b, version);
	if (have) {
		have->installed |= installed;
		if (rel)
			have->rel = rel;
		return;
	}
	b->c = xrealloc(b->c, (b->n + 1) * sizeof *b->c);
	b->c[b->n++] = (struct candidate){.version = xstrdup(version), .installed = installed, .rel = rel};
}

/* Those installed and those the channel offers (stable: no pre-release), oldest first. */
static void list_candidates(struct bisection *b)
{
	size_t n;
	char **v = store_versions(b->s, &n);
	for (size_t i = 0; i < n; i++)
		add(b, v[i], 1, NULL);
	store_free_list(v, n);
	struct tb_error none = {0};
	char *cache = store_reach_dir(b->s, STORE_CACHE_DIR, 0, &none);
	b->r->listed = cache && feed_cached(b->cfg, cache, &b->feed, &none) == TB_OK;
	b->r->list = BISECT_LIST_CACHED;
	if (!cache) {
		/* a cache/ that is no folder of the store's: no list read through it */
		b->r->list = BISECT_LIST_NONE;
		b->r->list_error = xstrdup(none.msg);
	} else if (!b->r->listed) {
		/* none cached: fetched for this bisect, read only (the store's cache stays as it is) */
		int from_cache;
		struct tb_error got = {0};
		b->r->listed = feed_peek(b->cfg, cache, &b->feed, &from_cache, &got) == TB_OK;
		b->r->list = b->r->listed ? BISECT_LIST_FETCHED : BISECT_LIST_NONE;
		if (!b->r->listed)
			b->r->list_error = xstrdup(got.msg);
	}
	free(cache);
	int testing = !strcmp(b->cfg->channel, "testing");
	for (size_t i = 0; b->r->listed && i < b->feed.n; i++) {
		const struct feed_release *rel = &b->feed.releases[i];
		if (testing || !rel->prerelease || find(b, rel->version))
			add(b, rel->version, 0, rel);
	}
	if (b->n)
		qsort(b->c, b->n, sizeof *b->c, by_version);
}

char *bisect_default_good(const struct store *s, const char *bad)
{
	struct state st;
	state_load(s, &st);
	struct marks marked;
	marks_load(s, &marked);
	size_t n;
	char **v = store_versions(s, &n); /* newest first */
	char *good = NULL;
	for (size_t i = 0; i < n && !good; i++)
		if (version_compare(v[i], bad) < 0 && !(st.failed && !strcmp(st.failed, v[i])) &&
		    !marks_find(&marked, v[i]))
			good = xstrdup(v[i]);
	store_free_list(v, n);
	marks_free(&marked);
	state_free(&st);
	return good;
}

static int unknown(struct bisection *b, const char *version, struct tb_error *e)
{
	if (b->r->listed)
		return tb_fail(e, TB_R_UNKNOWN_VERSION,
			       "Mesa %s is neither installed nor offered by the release list; `tb323fu-ctl mesa list --available` shows the versions on offer and those installed",
			       version);
	return tb_fail(e, TB_R_UNKNOWN_VERSION,
		       "Mesa %s is not installed and the release list could not be fetched (%s); `tb323fu-ctl mesa list --available` fetches it and shows the versions on offer",
		       version, b->r->list_error ? b->r->list_error : "none is cached");
}

/* The ends: given, or current and the default good one; good older than bad. */
static int resolve_ends(struct bisection *b, struct tb_error *e)
{
	struct bisect_result *r = b->r;
	r->bad = b->q->bad ? xstrdup(b->q->bad) : store_current(b->s);
	if (!r->bad)
		return tb_fail(e, TB_R_NOT_INSTALLED,
			       "no Mesa version is current to call bad; name the bad one with --bad VERSION");
	r->good = b->q->good ? xstrdup(b->q->good) : bisect_default_good(b->s, r->bad);
	if (!r->good)
		return tb_fail(e, TB_R_UNKNOWN_VERSION,
			       "no installed version older than Mesa %s that has not failed and is not marked to call good; name one with --good VERSION (`tb323fu-ctl mesa list --available` shows the versions on offer, those installed and their marks)",
			       r->bad);
	if (!find(b, r->bad))
		return unknown(b, r->bad, e);
	if (!find(b, r->good))
		return unknown(b, r->good, e);
	if (version_compare(r->good, r->bad) >= 0)
		return tb_fail(e, TB_R_USAGE,
			       "the good version (%s) must be older than the bad one (%s): bisect looks for the first bad version after a good one",
			       r->good, r->bad);
	r->n_range = (size_t)(find(b, r->bad) - find(b, r->good)) + 1;
	return TB_OK;
}

/* The work folder: a store of its own under the root, locked so that one bisect uses it at a
 * time; what a killed bisect left half unpacked goes with the lock's leftovers. */
static int open_work(struct bisection *b, struct tb_error *e)
{
	/* reached as the layout says: a link planted at bisect/ is refused, never followed */
	char *dir = store_reach_dir(b->s, STORE_BISECT_DIR, 1, e);
	int rc = dir ? store_open(&b->ws, dir, 1, e) : e->code;
	free(dir);
	if (rc)
		return rc;
	struct tb_error busy = {0};
	rc = store_lock(&b->ws, 0, &busy);
	if (rc == TB_EBUSY)
		return tb_fail(e, TB_R_BUSY, "busy: another bisect is running on the store %s; try again when it is done",
			       b->s->root);
	if (rc)
		*e = busy;
	return rc;
}

static void step_add(struct bisection *b, const struct bisect_step *st)
{
	struct bisect_result *r = b->r;
	r->steps = xrealloc(r->steps, (r->n_steps + 1) * sizeof *r->steps);
	r->steps[r->n_steps++] = *st;
	if (st->verdict == BISECT_SKIP && !st->stopped) {
		r->skipped = xrealloc(r->skipped, (r->n_skipped + 1) * sizeof *r->skipped);
		r->skipped[r->n_skipped++] = xstrdup(st->version);
	}
	if (b->q->stepped)
		b->q->stepped(b->q->ctx, st);
}

/* The store that holds version's tree: the store itself, or the work folder once acquired
 * there (as `download` does) and smoke-tested. NULL with st->why set when it cannot be tested
 * (refused, failed its smoke tests); NULL with e set when the bisect must stop. */
static struct store *prepare(struct bisection *b, struct candidate *c, struct bisect_step *st,
			     struct tb_error *e)
{
	if (c->installed)
		return b->s;
	if (!store_has_version(&b->ws, c->version)) {
		uint64_t resumed;
		struct tb_error got = {0};
		int rc = acquire_remote(b->cfg, &b->ws, c->rel, b->q->progress, &resumed, &got);
		if (rc == TB_EVERIFY) {
			st->why = xasprintf("refused: %s", got.msg);
			return NULL;
		}
		if (rc) {
			*e = got;
			return NULL;
		}
	}
	st->fetched = 1;
	/* kept from an earlier bisect and smoke-tested there: the same tree, not tested again */
	if (!strcmp(smoke_last_result(&b->ws, c->version), "pass"))
		return &b->ws;
	struct smoke_outcome so;
	if (smoke_run_version(&b->ws, c->version, b->q->progress, &so, e))
		return NULL;
	if (so.failed) {
		st->why = xasprintf("failed its smoke tests (%s)", so.first_failure);
		return NULL;
	}
	return &b->ws;
}

/* A step's output as it comes: into the log, and its last bytes kept for the step. */
struct step_output {
	int fd;
	struct child_tail tail;
};

static void output_add(void *ctx, const char *data, size_t n)
{
	struct step_output *so = ctx;
	child_tail_add(&so->tail, data, n);
	while (so->fd >= 0 && n > 0) {
		ssize_t w = write(so->fd, data, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break; /* a log that cannot be written loses lines, not the bisect */
		data += w;
		n -= (size_t)w;
	}
}

static void log_line(struct bisection *b, const char *fmt, const char *a, const char *c)
{
	if (b->log_fd < 0)
		return;
	char *line = xasprintf(fmt, a, c);
	struct step_output so = {.fd = b->log_fd};
	output_add(&so, line, strlen(line));
	free(line);
}

/* The last BISECT_TAIL_LINES lines of what the step printed, "" when nothing. */
#define BISECT_TAIL_LINES 10
static char *tail_lines(const struct child_tail *t)
{
	size_t end = t->len;
	while (end > 0 && (t->buf[end - 1] == '\n' || t->buf[end - 1] == '\r'))
		end--;
	size_t start = end;
	for (int lines = 0; start > 0; start--)
		if (t->buf[start - 1] == '\n' && ++lines == BISECT_TAIL_LINES)
			break;
	return xasprintf("%.*s", (int)(end - start), t->buf + start);
}

/* Starts the step's command, the one place a step's process is made: `sh -c CMD` through
 * `tb323fu-mesa run --version V` (which gives it TB323FU_MESA_VERSION=V), its stderr joined
 * to its stdout so that the log has both in order. */
static int start_step(struct store *where, const char *version, const char *command, struct child *ch,
		      struct tb_error *e)
{
	char *script = xasprintf("exec 2>&1\n%s", command);
	char *cmd[] = {"/bin/sh", "-c", script, NULL};
	char **argv = side_launch_argv(where, version, SIDE_STORE, cmd, e);
	int rc = argv ? child_start(ch, argv, NULL, e) : e->code;
	side_free_argv(argv);
	free(script);
	return rc;
}

/* code: what the command exited with; 124 (as timeout(1) gives) when it outlived its limit. */
static int run_command(struct bisection *b, struct store *where, const char *version, int *code,
		       struct bisect_step *st, struct tb_error *e)
{
	struct child ch;
	log_line(b, "---- Mesa %s: %s\n", version, b->q->command);
	int rc = start_step(where, version, b->q->command, &ch, e);
	if (rc)
		return rc;
	struct step_output so = {.fd = b->log_fd};
	int limit = side_time_limit(SIDE_JOB_BISECT), status;
	struct child_watch w = {.deadline = now_seconds() + limit, .finish_on_signal = 1,
				.out = output_add, .ctx = &so};
	int end = child_supervise(&ch, &w, &status);
	st->output = tail_lines(&so.tail);
	if (end == CHILD_INTERRUPTED)
		return tb_check_interrupted(e, "the command ran");
	if (end == CHILD_TIMED_OUT) {
		*code = BISECT_BAD_MAX;
		st->why = xasprintf("ran longer than its limit of %d s (%s) and was stopped, which counts as bad",
				    limit, side_time_limit_variable(SIDE_JOB_BISECT));
	} else {
		*code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	char said[64];
	snprintf(said, sizeof said, "%d", *code);
	log_line(b, "---- Mesa %s: exit %s\n", version, said);
	return TB_OK;
}


/* --bench: one run's figures, read from its "label : 12.5 GB/s" lines as bench reads them. */
struct bench_pass {
	struct step_output *so;
	char heading[256];
	int indent;
	char **names;
	double *values;
	int *lower;
	size_t n;
};

static void bench_out(void *ctx, const char *data, size_t n)
{
	output_add(((struct bench_pass *)ctx)->so, data, n);
}

static void bench_line(void *ctx, const char *line)
{
	struct bench_pass *p = ctx;
	char name[256], unit[64];
	double v;
	if (!bench_parse_line(line, p->heading, sizeof p->heading, &p->indent, name, sizeof name, unit, sizeof unit, &v) ||
	    !(v > 0) || !isfinite(v))
		return;
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->names[i], name))
			return; /* a figure once a run: its first value */
	p->names = xrealloc(p->names, (p->n + 1) * sizeof *p->names);
	p->values = xrealloc(p->values, (p->n + 1) * sizeof *p->values);
	p->lower = xrealloc(p->lower, (p->n + 1) * sizeof *p->lower);
	p->names[p->n] = xstrdup(name);
	p->values[p->n] = v;
	p->lower[p->n++] = bench_lower_is_better(unit);
}

static void bench_figure(void *ctx, const char *name, const char *unit, double v)
{
	struct bench_pass *p = ctx;
	char line[600];
	(void)unit;
	if (!(v > 0) || !isfinite(v))
		return;
	for (size_t i = 0; i < p->n; i++)
		if (!strcmp(p->names[i], name))
			return;
	p->names = xrealloc(p->names, (p->n + 1) * sizeof *p->names);
	p->values = xrealloc(p->values, (p->n + 1) * sizeof *p->values);
	p->lower = xrealloc(p->lower, (p->n + 1) * sizeof *p->lower);
	snprintf(line, sizeof line, "%s", name);
	p->names[p->n] = xstrdup(line);
	p->values[p->n] = v;
	p->lower[p->n++] = bench_lower_is_better(unit);
}

/* "'it'\''s'": a word for sh -c. */
static void shell_word(struct strbuf *sb, const char *w)
{
	sb_append(sb, " '");
	for (const char *p = w; *p; p++)
		if (*p == '\'')
			sb_append(sb, "'\\''");
		else
			sb_appendf(sb, "%c", *p);
	sb_append(sb, "'");
}

char *bisect_bench_tests_unknown(const char *tests)
{
	char *bad = bench_tests_unknown(tests);
	if (bad)
		return bad;
	/* bench's Vulkan figure is the smoke program's, which bench_command_of does not run */
	const char *vulkan = smoke_test_names[SMOKE_VK_COMPUTE];
	char *listed = xasprintf(",%s,", tests), *named = xasprintf(",%s,", vulkan);
	if (strstr(listed, named))
		bad = xstrdup(vulkan);
	free(named);
	free(listed);
	return bad;
}

/* What each run of --bench starts: the command, or clpeak with its XML dump into the work
 * folder and the tests named (the figures then read from the XML, as bench reads them). */
static int bench_command_of(struct bisection *b, struct tb_error *e)
{
	if (b->bench_cmd)
		return TB_OK;
	if (!b->q->tests) {
		b->bench_cmd = xstrdup(b->q->command);
		return TB_OK;
	}
	char *clpeak = find_program(BENCH_DEFAULT_COMMAND, NULL);
	if (!clpeak)
		return tb_fail(e, TB_R_PROGRAM_MISSING,
			       "clpeak is not installed (apt-get install clpeak), or name another benchmark with --command");
	int rc = trusted_program_path(clpeak, "clpeak", e);
	if (rc) {
		free(clpeak);
		return rc;
	}
	b->bench_xml = path_join(b->ws.root, "bench-clpeak.xml");
	struct strbuf sb = {0};
	sb_append(&sb, "exec");
	shell_word(&sb, clpeak);
	sb_append(&sb, " --enable-xml-dump -f");
	shell_word(&sb, b->bench_xml);
	char *tests = xstrdup(b->q->tests), *save = NULL;
	for (char *t = strtok_r(tests, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *opt = xasprintf("--%s", t);
		shell_word(&sb, opt);
		free(opt);
	}
	free(tests);
	free(clpeak);
	b->bench_cmd = xstrdup(sb.buf);
	sb_free(&sb);
	return TB_OK;
}

static void bench_pass_free(struct bench_pass *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->names[i]);
	free(p->names);
	free(p->values);
	free(p->lower);
}

/* One run of the benchmark on version: its figures in p; a run that fails or is stopped
 * gives none (the round then cannot be compared). */
static int bench_once(struct bisection *b, struct store *where, const char *version, struct bench_pass *p,
		      struct step_output *so, struct tb_error *e)
{
	struct child ch;
	p->so = so;
	p->indent = -1;
	log_line(b, "---- Mesa %s: %s\n", version, b->bench_cmd);
	if (b->bench_xml)
		unlink(b->bench_xml);
	int rc = start_step(where, version, b->bench_cmd, &ch, e);
	if (rc)
		return rc;
	int limit = side_time_limit(SIDE_JOB_BISECT), status;
	struct child_watch w = {.deadline = now_seconds() + limit, .finish_on_signal = 1,
				.out = bench_out, .line = b->bench_xml ? NULL : bench_line, .ctx = p};
	int end = child_supervise(&ch, &w, &status);
	if (end == CHILD_INTERRUPTED)
		return tb_check_interrupted(e, "the benchmark ran");
	if (b->bench_xml) { /* clpeak's figures: its XML, read as bench reads it */
		size_t len;
		char *text = read_small_file(b->bench_xml, 1 << 20, &len);
		if (text)
			bench_parse_clpeak_xml(text, len, bench_figure, p);
		free(text);
	}
	if (end == CHILD_TIMED_OUT || !WIFEXITED(status) || WEXITSTATUS(status)) {
		for (size_t i = 0; i < p->n; i++)
			free(p->names[i]);
		p->n = 0;
	}
	return TB_OK;
}

/* The round's log ratio of the version against the good end: the mean over the figures both
 * runs gave (the log of their geometric mean), turned so that > 0 is faster; 0 when none. */
static int round_log(const struct bench_pass *good, const struct bench_pass *mine, double *out)
{
	double sum = 0;
	size_t k = 0;
	for (size_t i = 0; i < mine->n; i++)
		for (size_t j = 0; j < good->n; j++)
			if (!strcmp(mine->names[i], good->names[j])) {
				double l = log(mine->values[i] / good->values[j]);
				sum += mine->lower[i] ? -l : l;
				k++;
			}
	if (!k)
		return 0;
	*out = sum / (double)k;
	return 1;
}

/* Measures c against the good end, rounds of both alternately (the order swapped every
 * round), again with more rounds while unclear (bisect_bench_judge), and records the step's
 * ratio, interval and verdict. */
static int run_bench(struct bisection *b, struct store *where, struct candidate *c, struct bisect_step *st,
		     struct tb_error *e)
{
	struct candidate *good = find(b, b->r->good);
	if (c == good) { /* the reference itself */
		st->code = 0;
		st->benched = 1;
		st->ratio = 1;
		st->bench_verdict = "same";
		st->why = xstrdup("the good end, which the others are measured against");
		b->good_where = where;
		return TB_OK;
	}
	if (!b->good_where) {
		struct bisect_step gs = {.version = good->version};
		b->good_where = prepare(b, good, &gs, e);
		if (!b->good_where) {
			int rc = e->code ? e->code : tb_fail(e, TB_R_BISECT_ENDS, "Mesa %s, the good end, cannot be benched (%s); name another with --good VERSION",
							   good->version, gs.why ? gs.why : "not installed");
			free(gs.why);
			return rc;
		}
	}
	int rounds = b->q->rounds > 0 ? b->q->rounds : BENCH_DEFAULT_ROUNDS, again = 0, measured = 0;
	struct step_output so = {.fd = b->log_fd};
	int rc = bench_command_of(b, e);
	if (rc)
		return rc;
	for (;;) {
		double *logs = xcalloc((size_t)rounds, sizeof *logs);
		size_t n = 0;
		for (int r = 0; r < rounds && !rc; r++) {
			struct bench_pass runs[2] = {{0}};
			/* even rounds the good end first, odd ones the version first */
			for (int k = 0; k < 2 && !rc; k++) {
				int mine = r % 2 ? !k : k;
				rc = bench_once(b, mine ? where : b->good_where, mine ? c->version : good->version,
						&runs[mine], &so, e);
			}
			if (!rc && round_log(&runs[0], &runs[1], &logs[n]))
				n++;
			bench_pass_free(&runs[0]);
			bench_pass_free(&runs[1]);
		}
		if (rc) {
			free(logs);
			break;
		}
		st->benched = 1;
		st->rounds = rounds;
		if (!n) {
			free(logs);
			st->verdict = BISECT_SKIP;
			st->bench_verdict = "unclear";
			st->why = xasprintf("the benchmark gave no figure both Mesa %s and Mesa %s share in any of %d rounds",
					    c->version, good->version, rounds);
			break;
		}
		struct bench_estimate est;
		bench_estimate(logs, n, &est);
		measured = 1;
		free(logs);
		st->ratio = est.ratio;
		st->has_interval = est.has_interval;
		st->low = est.low;
		st->high = est.high;
		st->bench_verdict = bench_verdict_name(est.verdict);
		st->verdict = bisect_bench_judge(&est, rounds, BISECT_BENCH_MAX_ROUNDS, &again);
		free(st->why);
		if (st->has_interval)
			st->why = xasprintf("%s, %.2fx Mesa %s (95 %% interval %.2fx-%.2fx), %d rounds", st->bench_verdict,
					    st->ratio, good->version, st->low, st->high, rounds);
		else
			st->why = xasprintf("%s, %.2fx Mesa %s, %d rounds give no interval", st->bench_verdict, st->ratio,
					    good->version, rounds);
		if (!again)
			break;
		char more[32];
		snprintf(more, sizeof more, "%d", again);
		log_line(b, "---- Mesa %s: unclear, measured again with %s rounds\n", c->version, more);
		rounds = again;
	}
	if (!rc && st->verdict == BISECT_SKIP && measured) {
		char *why = st->why;
		st->why = xasprintf("%s; still unclear at %d rounds, bisect's bound: skipped, not guessed", why, st->rounds);
		free(why);
	}
	st->code = st->verdict == BISECT_GOOD ? 0 : st->verdict == BISECT_BAD ? 1 : BISECT_SKIP_CODE;
	st->output = tail_lines(&so.tail);
	return rc;
}

/* "^basic/buffer\+1$": a sub-test's name as an extended regular expression of itself. */
static char *exact_regex(const char *name)
{
	struct strbuf sb = {0};
	sb_append(&sb, "^");
	for (const char *p = name; *p; p++) {
		if (strchr("\\^$.|?*+()[]{}", *p))
			sb_append(&sb, "\\");
		sb_appendf(&sb, "%c", *p);
	}
	sb_append(&sb, "$");
	char *out = xstrdup(sb.buf);
	sb_free(&sb);
	return out;
}

/* The case's result on the store's side: pass (and warnings) good, skip 125, anything else bad. */
static int case_code(json_object *res, const char *name, struct bisect_step *st)
{
	json_object *results = json_object_object_get(res, "results");
	for (size_t i = 0; results && i < json_object_array_length(results); i++) {
		json_object *t = json_object_array_get_idx(results, i);
		if (strcmp(json_object_get_string(json_object_object_get(t, "name")), name))
			continue;
		const char *got = json_object_get_string(json_object_object_get(t, "store"));
		st->why = xasprintf("%s", got ? got : "missing");
		if (got && suite_result_passes(got))
			return 0;
		return got && !strcmp(got, "skip") ? BISECT_SKIP_CODE : 1;
	}
	st->why = xstrdup("the case did not run");
	return BISECT_SKIP_CODE;
}

enum bisect_case bisect_case_kind(const char *name)
{
	const char *slash = strchr(name, '/');
	if (!slash)
		return deqp_kind_of_case(name) ? BISECT_CASE_DEQP : BISECT_CASE_UNKNOWN;
	return name[0] == '/' || strchr(slash + 1, '/') || !slash[1] ? BISECT_CASE_BAD_SUBTEST : BISECT_CASE_CTS;
}

static int run_case(struct bisection *b, struct store *where, const char *version, int *code,
		    struct bisect_step *st, struct tb_error *e)
{
	const char *name = b->q->test_case, *slash = strchr(name, '/');
	struct suite_options o = {.jobs = 1};
	char *binary = NULL, *regex = NULL;
	const struct deqp_kind *k = slash ? NULL : deqp_kind_of_case(name);
	const struct suite *su = suite_find(slash ? "opencl-cts" : k ? k->name : "dEQP-VK");
	if (slash) {
		binary = xasprintf("%.*s", (int)(slash - name), name);
		regex = exact_regex(name);
		o.tests = binary;
		o.subtests = regex;
	} else {
		o.caselist = b->case_list;
	}
	struct suite_outcome out;
	json_object *res = NULL;
	int rc = su->run(where, version, &o, b->cfg, b->q->progress, &out, &res, e);
	if (!rc) {
		*code = case_code(res, name, st);
		log_line(b, "---- Mesa %s: the case's result on the store's side: %s\n", version, st->why);
	}
	json_object_put(res);
	free(binary);
	free(regex);
	return rc;
}

static enum bisect_verdict verdict_of(int code)
{
	return code == 0 ? BISECT_GOOD : code == BISECT_SKIP_CODE ? BISECT_SKIP : BISECT_BAD;
}

/* One version tested. TB_OK with the step recorded (c->verdict); else the bisect stops. */
static int test_version(struct bisection *b, struct candidate *c, struct tb_error *e)
{
	struct bisect_step st = {.version = xstrdup(c->version), .code = -1, .verdict = BISECT_SKIP};
	char *event = xasprintf("bisect:%s", c->version);
	testhook_pause("bisect-step");
	progress_test(b->q->progress, event, "run");
	struct store *where = prepare(b, c, &st, e);
	int rc = e->code;
	if (where) {
		double t0 = now_seconds();
		rc = b->q->bench     ? run_bench(b, where, c, &st, e)
		     : b->q->command ? run_command(b, where, c->version, &st.code, &st, e)
				     : run_case(b, where, c->version, &st.code, &st, e);
		st.seconds = now_seconds() - t0;
		if (!rc && st.code > BISECT_SKIP_CODE) {
			/* it ran: counted among the runs, then the bisect stops */
			st.stopped = 1;
			st.why = xasprintf("exit %d stops the bisect", st.code);
			st.output = st.output ? st.output : xstrdup("");
			step_add(b, &st);
			free(event);
			return tb_fail(e, TB_R_PROGRAM_FAILED,
				       "the command exited %d on Mesa %s, which is neither good (0), bad (1-124) nor untestable (125), so bisect stops as git bisect run does; end the command with `|| exit 1` to count that as bad",
				       st.code, c->version);
		}
		if (!rc)
			st.verdict = verdict_of(st.code);
	}
	if (rc) {
		free(st.version);
		free(st.why);
		free(st.output);
		free(event);
		return rc;
	}
	if (!st.why)
		st.why = xstrdup("");
	if (!st.output)
		st.output = xstrdup("");
	progress_test(b->q->progress, event,
		      st.verdict == BISECT_GOOD ? "pass" : st.verdict == BISECT_BAD ? "fail" : "skip");
	free(event);
	c->verdict = st.verdict;
	bisect_plan_record(&b->plan, (size_t)(c - b->c), st.verdict);
	step_add(b, &st);
	return TB_OK;
}

static void stands_at(struct bisection *b, size_t lo, size_t hi)
{
	free(b->r->at_good);
	free(b->r->at_bad);
	b->r->at_good = xstrdup(b->c[lo].version);
	b->r->at_bad = xstrdup(b->c[hi].version);
}

/* An end that does not test as it was named: said at once, not bisected. */
static int check_end(struct bisection *b, struct candidate *c, enum bisect_verdict want,
		     struct tb_error *e)
{
	int rc = test_version(b, c, e);
	if (rc || c->verdict == want)
		return rc;
	const char *what = b->q->command ? "the command" : b->q->test_case;
	if (c->verdict == BISECT_SKIP)
		return tb_fail(e, TB_R_BISECT_ENDS,
			       "Mesa %s, the %s end, cannot be tested (%s); name another with %s VERSION",
			       c->version, want == BISECT_GOOD ? "good" : "bad",
			       *b->r->steps[b->r->n_steps - 1].why ? b->r->steps[b->r->n_steps - 1].why : "exit 125",
			       want == BISECT_GOOD ? "--good" : "--bad");
	if (want == BISECT_GOOD)
		return tb_fail(e, TB_R_BISECT_ENDS,
			       "Mesa %s, %s, fails %s already; name an older version that passes with --good VERSION",
			       c->version,
			       b->q->good ? "named good"
					  : "taken as good (default: the newest installed version older than the bad one)",
			       what);
	if (b->q->bench)
		return tb_fail(e, TB_R_BISECT_ENDS,
			       "Mesa %s, %s, is not slower than Mesa %s, the good end (%s); name a slower version with --bad VERSION",
			       c->version, b->q->bad ? "named bad" : "taken as bad (default: current)", b->r->good,
			       b->r->steps[b->r->n_steps - 1].why);
	return tb_fail(e, TB_R_BISECT_ENDS, "Mesa %s, %s, passes %s; name a version that fails with --bad VERSION",
		       c->version, b->q->bad ? "named bad" : "taken as bad (default: current)", what);
}

static int interrupted(struct tb_error *e)
{
	return tb_check_interrupted(e, "bisect ran");
}

static int halve(struct bisection *b, struct tb_error *e)
{
	int rc = TB_OK;
	size_t i;
	stands_at(b, b->plan.lo, b->plan.hi);
	/* a signal stops it before the next step; the one running went to its end */
	while (!rc && (i = bisect_plan_next(&b->plan)) && !(rc = interrupted(e))) {
		rc = test_version(b, &b->c[i], e);
		stands_at(b, b->plan.lo, b->plan.hi);
	}
	if (rc)
		return rc;
	b->r->skipped_between = bisect_plan_unresolved(&b->plan);
	b->r->found = 1;
	return TB_OK;
}

static void build_of(struct bisection *b, struct candidate *c, struct bisect_build *out)
{
	struct manifest m;
	struct tb_error ignored = {0};
	out->version = xstrdup(c->version);
	struct store *where = c->installed ? b->s : &b->ws;
	if (store_load_manifest(where, c->version, &m, &ignored) == TB_OK) {
		out->mesa_version = xstrdup(m.mesa_version ? m.mesa_version : "");
		out->commit = xstrdup(m.commit ? m.commit : "");
		manifest_free(&m);
	} else {
		out->mesa_version = xstrdup("");
		out->commit = xstrdup("");
	}
}

/* The two builds, and the notes of the versions after the last good one up to the first bad. */
static void describe(struct bisection *b)
{
	struct bisect_result *r = b->r;
	struct candidate *lo = find(b, r->at_good), *hi = find(b, r->at_bad);
	build_of(b, lo, &r->last_good);
	build_of(b, hi, &r->first_bad);
	for (struct candidate *c = lo + 1; c <= hi; c++) {
		const struct feed_release *rel = c->rel ? c->rel : r->listed ? feed_find(&b->feed, c->version) : NULL;
		r->notes = xrealloc(r->notes, (r->n_notes + 1) * sizeof *r->notes);
		r->notes[r->n_notes++] = (struct bisect_note){
			.version = xstrdup(c->version), .notes = xstrdup(rel ? rel->notes : ""),
			.url = xstrdup(rel ? rel->notes_url : "")};
	}
}

/* The steps' log, in the work folder while it runs (the folder's lock is ours): a fresh file,
 * whatever a kept work folder (--keep) or a hand left at its name (a FIFO would hold the open). */
static int open_log(struct bisection *b, struct tb_error *e)
{
	char *path = path_join(b->ws.root, STORE_BISECT_RUNNING_LOG);
	unlink(path);
	b->log_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	int rc = b->log_fd < 0 ? tb_fail(e, TB_R_IO_ERROR, "cannot write %s: %s; check the store's folder", path,
					 strerror(errno))
			       : TB_OK;
	free(path);
	return rc;
}

/* The log goes to the store's root, replacing the last bisect's, before the work folder goes. */
static void keep_log(struct bisection *b)
{
	if (b->log_fd < 0)
		return;
	close(b->log_fd);
	b->log_fd = -1;
	char *from = path_join(b->ws.root, STORE_BISECT_RUNNING_LOG), *to = store_path(b->s, STORE_BISECT_LOG);
	if (rename(from, to) == 0)
		b->r->log = to;
	else
		free(to);
	free(from);
}

static int write_case_list(struct bisection *b, struct tb_error *e)
{
	if (!b->q->test_case || strchr(b->q->test_case, '/'))
		return TB_OK;
	b->case_list = path_join(b->ws.root, "case.txt");
	char *text = xasprintf("%s\n", b->q->test_case);
	int rc = atomic_write_file(b->case_list, text, strlen(text), 0644, e);
	free(text);
	return rc;
}

/* A reader (docs/design.md §12): the installed versions of the range are pinned, not locked,
 * so writers go on meanwhile but none removes them. */
static void pin_range(struct bisection *b, size_t lo, size_t hi)
{
	b->pins = xcalloc(hi - lo + 1, sizeof *b->pins);
	for (size_t i = lo; i <= hi; i++)
		if (b->c[i].installed)
			pin_take(b->s, b->c[i].version, "tb323fu-ctl mesa bisect", &b->pins[b->n_pins++]);
}

static void unpin(struct bisection *b)
{
	for (size_t i = 0; i < b->n_pins; i++)
		pin_release(&b->pins[i]);
	free(b->pins);
}

static int bisect_ranges(struct bisection *b, struct tb_error *e)
{
	struct bisect_result *r = b->r;
	size_t lo = (size_t)(find(b, r->good) - b->c), hi = (size_t)(find(b, r->bad) - b->c);
	pin_range(b, lo, hi);
	bisect_plan_start(&b->plan, b->n, lo, hi);
	stands_at(b, lo, hi);
	int rc = check_end(b, &b->c[hi], BISECT_BAD, e);
	if (!rc && !(rc = interrupted(e)))
		rc = check_end(b, &b->c[lo], BISECT_GOOD, e);
	if (!rc)
		rc = halve(b, e);
	if (!rc)
		describe(b);
	return rc;
}

int bisect_run(const struct config *cfg, struct store *s, const struct bisect_request *q,
	       struct bisect_result *r, struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	struct bisection b = {.cfg = cfg, .s = s, .q = q, .r = r, .ws = {.lock_fd = -1}, .log_fd = -1};
	list_candidates(&b);
	int rc = resolve_ends(&b, e);
	if (!rc)
		rc = open_work(&b, e);
	if (!rc)
		rc = open_log(&b, e);
	if (!rc)
		rc = write_case_list(&b, e);
	if (!rc)
		rc = bisect_ranges(&b, e);
	keep_log(&b);
	if (b.bench_xml) /* clpeak's last results: not kept with the versions */
		unlink(b.bench_xml);
	bisect_plan_free(&b.plan);
	if (b.ws.root && q->keep && b.ws.lock_fd >= 0)
		r->kept = xstrdup(b.ws.root);
	else if (b.ws.root && b.ws.lock_fd >= 0)
		remove_tree(b.ws.root);
	store_close(&b.ws);
	unpin(&b);
	free(b.bench_cmd);
	free(b.bench_xml);
	for (size_t i = 0; i < b.n; i++)
		free(b.c[i].version);
	free(b.c);
	free(b.case_list);
	if (r->listed)
		feed_free(&b.feed);
	return rc;
}

static void build_free(struct bisect_build *b)
{
	free(b->version);
	free(b->mesa_version);
	free(b->commit);
}

void bisect_result_free(struct bisect_result *r)
{
	free(r->good);
	free(r->bad);
	for (size_t i = 0; i < r->n_steps; i++) {
		free(r->steps[i].version);
		free(r->steps[i].why);
		free(r->steps[i].output);
	}
	free(r->steps);
	for (size_t i = 0; i < r->n_skipped; i++)
		free(r->skipped[i]);
	free(r->skipped);
	free(r->at_good);
	free(r->at_bad);
	build_free(&r->last_good);
	build_free(&r->first_bad);
	for (size_t i = 0; i < r->n_notes; i++) {
		free(r->notes[i].version);
		free(r->notes[i].notes);
		free(r->notes[i].url);
	}
	free(r->notes);
	free(r->kept);
	free(r->list_error);
	free(r->log);
	memset(r, 0, sizeof *r);
}
