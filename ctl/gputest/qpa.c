/* The QPA log reader: counts the results a dEQP process logs.
 *
 * The log is read line by line, looking only at the few markers that carry results
 * (#beginTestCaseResult, <Result StatusCode=…>, <Number Name="TestDuration">,
 * #endTestCaseResult, #terminateTestCaseResult). The XML between the markers is not parsed:
 * a crashed or killed process leaves it truncated, which an XML parser would reject, and
 * dEQP itself writes each of those elements on one line. */
#include "gputest/qpa.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/strbuf.h"

#define QPA_MAX_LINE 65536
#define QPA_MAX_DETAIL 400

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

const char *qpa_kind_result(enum qpa_kind k)
{
	return k == QPA_CRASH ? "crash" : k == QPA_TIMEOUT ? "timeout" : qpa_kind_status(k);
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

void qpa_parser_drop_open(struct qpa_parser *q)
{
	q->line_len = 0;
	q->line_cut = 0;
	if (!q->open)
		return;
	q->n--;
	free(q->cases[q->n].name);
	free(q->cases[q->n].detail);
	q->open = 0;
	q->have_result = 0;
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
