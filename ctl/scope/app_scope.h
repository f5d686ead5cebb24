/* What the app commands share (docs/design.md §16): one owner's rules open for a command
 * (the system's under the store's lock, or the caller's own under theirs), the override's
 * spec, a rule in words, and every rule summed up for list, status and doctor. */
#ifndef TB_APP_SCOPE_H
#define TB_APP_SCOPE_H

#include "cli/cli.h"
#include "apprules/override_entry.h"
#include "apprules/rules.h"

/* --user, the caller's own rules: the store is only read (its versions), whoever may write it. */
#define APP_USER_OPTION(type)                                                                              \
	{.name = "--user",                                                                                 \
	 .help = "your own rules (in your configuration and ~/.local/share/applications), no root needed", \
	 .kind = OPT_FLAG, .offset = offsetof(type, user), .writes = -1}

/* One owner's rules, open for a command: the store (its lock for the system's rules) and the
 * user's own lock for theirs. */
struct app_ctx {
	const struct store *s;
	struct app_scope sc;
	int lock_fd;
};

/* Opens the scope: a writer of the system's rules has the store's lock (its entry opens it
 * so); a user's writes only their own files (the store is only read, for its versions). */
int app_open(struct cli *c, const struct store *s, struct app_ctx *x, int user, int writer,
	     struct tb_error *e);
void app_ctx_close(struct app_ctx *x);

/* The rules; a damaged rule file is rebuilt from the entries of ours that carry them (by a
 * writer; 1 for a reader: read from the entries). -1 on failure. */
int rules_open(struct app_ctx *x, struct app_rules *r, int writer, int *repaired,
	       struct tb_error *e);

void spec_of(const struct app_ctx *x, const char *launcher, const char *choice,
	     struct override_spec *spec);
/* "org.example.App starts with Mesa 2026.10.06 (pinned)" (free it). */
char *rule_text(const char *id, const char *choice, const char *gl);

/* Every application rule, the system's (system 1) then the caller's own: arr gets one object
 * a rule, lines one line each, gone a sentence a line for each rule whose pinned version is
 * no longer installed (or whose file is damaged). */
struct strbuf;
void app_rules_summary(const struct store *s, int system, json_object *arr, struct strbuf *lines,
		       struct strbuf *gone);

#endif
