/* doctor: explains what applications get now. The store and the session switch, the
 * variables of this shell, the loaders and ICDs the system has, the glibc floor of the
 * current version against this system, and every problem found, each with what to do: what
 * the engine found (health/health.h, in render/health_say.h's words and JSON), then the
 * rules, the Flatpak exports, the crash evidence and the CTS as the commands of each show
 * them. */
#include "cli/cli.h"
#include "cli/command.h"
#include "scope/app_scope.h"
#include "cmd/commands.h"
#include "render/cts_say.h"
#include "crash/summary.h"
#include "scope/flatpak_scope.h"
#include "render/health_say.h"
#include "crash/journal.h"
#include "health/health.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/text.h"

#include <stdarg.h>
#include <stdlib.h>

struct doctor {
	struct strbuf lines;
	json_object *problems;
	json_object *fields;
	int n_problems;
};

static void line(struct doctor *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct doctor *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	if (d->lines.len)
		sb_append(&d->lines, "\n");
	sb_append(&d->lines, s);
	free(s);
}

static void problem(struct doctor *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct doctor *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	line(d, "problem: %s", s);
	json_object_array_add(d->problems, json_object_new_string(s));
	d->n_problems++;
	free(s);
}

/* The engine's findings in their order, a problem's counted. */
static void say_findings(struct doctor *d, const struct health_findings *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct strbuf sb = {0};
		health_finding_say(&sb, &l->v[i]);
		if (l->v[i].problem)
			problem(d, "%s", sb.buf);
		else
			line(d, "%s", sb.buf);
		sb_free(&sb);
	}
}

/* Each line of text (a summary's "gone" sentences) a problem of its own. */
static void problem_lines(struct doctor *d, char *text)
{
	char *cursor = text, *one;
	while (cursor && (one = next_line(&cursor)))
		if (*one)
			problem(d, "%s", one);
}

/* Every application rule, and each whose pinned version is gone as a problem (§16). */
static void report_app_rules(struct doctor *d, const struct store *s)
{
	json_object *arr = json_object_new_array();
	struct strbuf lines = {0}, gone = {0};
	app_rules_summary(s, 1, arr, &lines, &gone);
	json_object_object_add(d->fields, "app_rules", arr);
	if (lines.len)
		line(d, "application rules:\n%s", lines.buf);
	problem_lines(d, gone.buf);
	sb_free(&lines);
	sb_free(&gone);
}

/* The crash record's events and automatic pins, and the desktop's applications the loaders
 * will not switch (AT_SECURE) (docs/design.md §18). */
static void report_crashes(struct doctor *d, const struct store *s)
{
	json_object *crashes = json_object_new_object(), *secure = json_object_new_array();
	struct strbuf lines = {0}, progs = {0};
	crash_summary(s, crashes, &lines);
	/* whether there is a journal to read crashes from at all: listed, not a problem of the
	 * store (a system may keep no journal) */
	struct tb_error why = {0};
	int unreadable = journal_check_readable(&why);
	json_object_object_add(crashes, "journal_readable", json_object_new_boolean(!unreadable));
	if (unreadable)
		sb_appendf(&lines, "%s\n", why.msg);
	crash_secure_programs(s, secure, &progs);
	json_object_object_add(d->fields, "crashes", crashes);
	json_object_object_add(d->fields, "not_switchable", secure);
	if (lines.len)
		line(d, "crash evidence:\n%.*s", (int)lines.len - 1, lines.buf);
	if (progs.len)
		line(d, "applications the loaders will not switch (AT_SECURE):\n%.*s", (int)progs.len - 1, progs.buf);
	sb_free(&lines);
	sb_free(&progs);
}

/* The store's Flatpak exports, and each whose version is gone as a problem (§17). */
static void report_flatpak(struct doctor *d, const struct store *s, const struct health_report *r)
{
	json_object *arr = json_object_new_array();
	struct strbuf lines = {0}, gone = {0};
	flatpak_summary(s, arr, &lines, &gone);
	json_object_object_add(d->fields, "flatpak_exports", arr);
	if (lines.len)
		line(d, "Flatpak extensions of this store (app set, or tb323fu-mesa run flatpak run, gives them to an application):\n%s", lines.buf);
	problem_lines(d, gone.buf);
	int exported = lines.len > 0;
	sb_free(&lines);
	sb_free(&gone);
	/* what a Flatpak start from the session gets (§17, "From the session"), and the
	 * overrides that decide its OpenCL */
	struct strbuf said = {0};
	int ours;
	flatpak_session_summary(s, &said, &ours);
	json_object_object_add(d->fields, "flatpak_session", json_object_new_string(ours ? "store" : "runtime"));
	if (exported)
		line(d, "%s", said.buf);
	sb_free(&said);
	say_findings(d, &r->flatpak);
}

/* The CTS the suites use (docs/design.md §13) as every command names it, then what the
 * engine found of its files. */
static void report_cts(struct doctor *d, const struct store *s, const struct health_report *r)
{
	struct strbuf said = {0};
	json_object_object_add(d->fields, "cts", cts_current_say(s, &said));
	line(d, "%s", said.buf);
	sb_free(&said);
	say_findings(d, &r->cts);
}

static int cmd_doctor(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	struct tb_error e = {0};
	struct health_report r;
	if (health_check(s, &c->cfg, &r, &e))
		return outcome_fail(o, &e);
	if (!o->fields)
		o->fields = json_object_new_object();
	struct doctor d = {.problems = json_object_new_array(), .fields = o->fields};
	health_facts_json(&r, o->fields);
	say_findings(&d, &r.found);
	report_app_rules(&d, s);
	report_flatpak(&d, s, &r);
	report_crashes(&d, s);
	report_cts(&d, s, &r);
	if (d.n_problems)
		line(&d, "%d problem%s found", d.n_problems, d.n_problems == 1 ? "" : "s");
	else
		line(&d, "no problems found");
	json_object_object_add(o->fields, "problems", d.problems);
	outcome_say(o, "%s", d.lines.buf);
	/* A problem found is a failure (exit 1) for scripts; the findings are still the report. */
	o->report = 1;
	o->reason = TB_R_FAILED;
	sb_free(&d.lines);
	health_free(&r);
	return o->code = d.n_problems ? TB_EFAIL : TB_OK;
}

const struct cli_command doctor_command = {
	.name = "doctor",
	.args = "",
	.summary = "explain what programs get now and list every problem (exit 1 when there is one)",
	.example = "tb323fu-ctl mesa doctor",
	.open = OPEN_READER,
	.run = cmd_doctor,
};
