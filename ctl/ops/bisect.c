/* bisect: the first bad version between a good and a bad one (ops/bisect.h). */
#include "ops/bisect.h"
#include "store/layout.h"
#include "ops/acquire.h"
#include "release/feed.h"
#include "store/manifest.h"
#include "store/marks.h"
#include "store/pins.h"
#include "store/state.h"
#include "trial/child.h"
#include "trial/deqp_cases.h"
#include "trial/side.h"
#include "trial/smoke_run.h"
#include "trial/suite.h"
#include "trial/suite_compare.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/strbuf.h"
#include "base/testhook.h"

#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* A version of the range: in the store, or offered by the release list. */
struct candidate {
	char *version;
	int installed;
	const struct feed_release *rel;
	int tested;
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
			       "Mesa %s is neither installed nor in the release list; `tb323fu-ctl mesa list` shows what is installed, `tb323fu-ctl mesa check` refreshes the list",
			       version);
	return tb_fail(e, TB_R_UNKNOWN_VERSION,
		       "Mesa %s is not installed and no release list is cached to fetch it from; run `tb323fu-ctl mesa check` first",
		       version);
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
			       "no installed version older than Mesa %s that has not failed and is not marked to call good; name one with --good VERSION (`tb323fu-ctl mesa list` shows the installed ones and their marks)",
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
	if (st->verdict == BISECT_SKIP) {
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
	struct smoke_outcome so;
	if (smoke_run_version(&b->ws, c->version, b->q->progress, &so, e))
		return NULL;
	if (so.failed) {
		st->why = xasprintf("failed its smoke tests (%s)", so.first_failure);
		return NULL;
	}
	return &b->ws;
}

/* code: what the command exited with; 124 (as timeout(1) gives) when it outlived its limit. */
static int run_command(struct bisection *b, struct store *where, const char *version, int *code,
		       struct bisect_step *st, struct tb_error *e)
{
	char *cmd[] = {"/bin/sh", "-c", (char *)b->q->command, NULL};
	char **argv = side_launch_argv(where, version, SIDE_STORE, cmd, e);
	if (!argv)
		return e->code;
	struct child ch;
	int rc = child_start(&ch, argv, NULL, e);
	side_free_argv(argv);
	if (rc)
		return rc;
	int limit = side_time_limit(SIDE_JOB_BISECT), status;
	struct child_watch w = {.deadline = now_seconds() + limit, .finish_on_signal = 1};
	int end = child_supervise(&ch, &w, &status);
	if (end == CHILD_INTERRUPTED)
		return tb_check_interrupted(e, "the command ran");
	if (end == CHILD_TIMED_OUT) {
		*code = BISECT_BAD_MAX;
		st->why = xasprintf("ran longer than its limit of %d s (%s) and was stopped, which counts as bad",
				    limit, side_time_limit_variable(SIDE_JOB_BISECT));
	} else {
		*code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	}
	return TB_OK;
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
	if (!rc)
		*code = case_code(res, name, st);
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
		rc = b->q->command ? run_command(b, where, c->version, &st.code, &st, e)
				   : run_case(b, where, c->version, &st.code, &st, e);
		st.seconds = now_seconds() - t0;
		if (!rc && st.code > BISECT_SKIP_CODE)
			rc = tb_fail(e, TB_R_FAILED,
				     "the command exited %d on Mesa %s, which is neither good (0), bad (1-124) nor untestable (125), so bisect stops as git bisect run does; end the command with `|| exit 1` to count that as bad",
				     st.code, c->version);
		if (!rc)
			st.verdict = verdict_of(st.code);
	}
	if (rc) {
		free(st.version);
		free(st.why);
		free(event);
		return rc;
	}
	if (!st.why)
		st.why = xstrdup("");
	progress_test(b->q->progress, event,
		      st.verdict == BISECT_GOOD ? "pass" : st.verdict == BISECT_BAD ? "fail" : "skip");
	free(event);
	c->tested = 1;
	c->verdict = st.verdict;
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
			       "Mesa %s, named good, fails %s already; name an older version that passes with --good VERSION",
			       c->version, what);
	return tb_fail(e, TB_R_BISECT_ENDS,
		       "Mesa %s, named bad, passes %s; name a version that fails with --bad VERSION", c->version, what);
}

/* The untested, unskipped version nearest the middle of (lo, hi), or 0 when none is left. */
static size_t next_between(const struct bisection *b, size_t lo, size_t hi)
{
	size_t mid = lo + (hi - lo) / 2, best = 0, dist = (size_t)-1;
	for (size_t i = lo + 1; i < hi; i++) {
		size_t d = i > mid ? i - mid : mid - i;
		if (!b->c[i].tested && d < dist) {
			best = i;
			dist = d;
		}
	}
	return best;
}

static int interrupted(struct tb_error *e)
{
	return tb_check_interrupted(e, "bisect ran");
}

static int halve(struct bisection *b, size_t lo, size_t hi, struct tb_error *e)
{
	int rc = TB_OK;
	size_t i;
	stands_at(b, lo, hi);
	/* a signal stops it before the next step; the one running went to its end */
	while (!rc && (i = next_between(b, lo, hi)) && !(rc = interrupted(e))) {
		rc = test_version(b, &b->c[i], e);
		if (!rc && b->c[i].verdict == BISECT_GOOD)
			lo = i;
		else if (!rc && b->c[i].verdict == BISECT_BAD)
			hi = i;
		stands_at(b, lo, hi);
	}
	if (rc)
		return rc;
	for (size_t k = lo + 1; k < hi; k++)
		b->r->skipped_between++;
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
	stands_at(b, lo, hi);
	int rc = check_end(b, &b->c[hi], BISECT_BAD, e);
	if (!rc && !(rc = interrupted(e)))
		rc = check_end(b, &b->c[lo], BISECT_GOOD, e);
	if (!rc)
		rc = halve(b, lo, hi, e);
	if (!rc)
		describe(b);
	return rc;
}

int bisect_run(const struct config *cfg, struct store *s, const struct bisect_request *q,
	       struct bisect_result *r, struct tb_error *e)
{
	memset(r, 0, sizeof *r);
	struct bisection b = {.cfg = cfg, .s = s, .q = q, .r = r, .ws = {.lock_fd = -1}};
	list_candidates(&b);
	int rc = resolve_ends(&b, e);
	if (!rc)
		rc = open_work(&b, e);
	if (!rc)
		rc = write_case_list(&b, e);
	if (!rc)
		rc = bisect_ranges(&b, e);
	if (b.ws.root && q->keep && b.ws.lock_fd >= 0)
		r->kept = xstrdup(b.ws.root);
	else if (b.ws.root && b.ws.lock_fd >= 0)
		remove_tree(b.ws.root);
	store_close(&b.ws);
	unpin(&b);
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
	memset(r, 0, sizeof *r);
}
