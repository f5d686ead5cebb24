/* What the command-line layer hands a command, and what a command hands back. */
#ifndef TB_CLI_H
#define TB_CLI_H

#include <json-c/json.h>

#include "config.h"
#include "progress.h"
#include "store.h"

struct cli {
	const char *store_dir; /* --store, or NULL */
	struct config cfg;
	int json;
	int wait;
	const struct tb_progress *progress;
};

/* A command's result: exit code, one human sentence (or several lines), its JSON fields. */
struct outcome {
	int code;
	char *message;
	const char *reason;  /* a failure's reason id (docs/design.md), static; NULL on success */
	json_object *fields; /* an object; "ok" and "message" are added by main */
	int fields_only;     /* status and list: the object has exactly docs/design.md §5's keys */
	int report;          /* the message is a report for stdout even when code says failed */
};

void outcome_say(struct outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int outcome_fail(struct outcome *o, const struct tb_error *e);
void outcome_str(struct outcome *o, const char *key, const char *value);
void outcome_int(struct outcome *o, const char *key, int64_t value);
void outcome_bool(struct outcome *o, const char *key, int value);

/* The fields and sentences after a version became current (smoke NULL: not run). Shared by
 * install, install-local and update so they speak alike. */
struct smoke_outcome;
void outcome_installed(struct outcome *o, const struct store *s, const char *version,
		       const struct smoke_outcome *smoke);

/* A usage error: exit 2, reason usage, the sentence (printf format) naming the right usage. */
int cli_usage(struct outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A release's drivers: ["vulkan","opencl"] for JSON, "vulkan, opencl" for people (m NULL:
 * none known). */
struct manifest;
json_object *cli_drivers_array(const struct manifest *m);
const char *cli_drivers_text(const struct manifest *m);
/* Adds version, drivers, base, mesa_version of an installed version to the outcome and
 * writes "vulkan, opencl, based on upstream 1a2b3c4" into about. */
void cli_describe_version(struct outcome *o, const struct store *s, const char *version,
			  char *about, size_t n);

/* Opens the store as a writer (created, locked, an interrupted commit finished, the reserve
 * kept) or a reader (an interrupted commit finished when the reader may write). */
int cli_open_store(struct cli *c, struct store *s, int writer, struct tb_error *e);
/* For a command that tests one installed version (smoke, bench): checks the name given
 * (NULL: current), opens the store for writing and reports "version". Returns the version
 * (free it; the store stays open) or NULL with the failure in o and the store closed. */
char *cli_open_for_version(struct cli *c, struct store *s, const char *version,
			   struct outcome *o);

/* verify --repair's second half: fetches the version anew from the release source and
 * replaces the damaged tree (the store open and locked). */
int cli_verify_repair(struct cli *c, struct store *s, const char *version, struct outcome *o);

typedef int (*command_fn)(struct cli *c, int argc, char **argv, struct outcome *o);

#define COMMAND(name) int cmd_##name(struct cli *c, int argc, char **argv, struct outcome *o)
COMMAND(status);
COMMAND(list);
COMMAND(check);
COMMAND(download);
COMMAND(install);
COMMAND(update);
COMMAND(install_local);
COMMAND(on);
COMMAND(off);
COMMAND(keep);
COMMAND(rollback);
COMMAND(boot_tick);
COMMAND(remove);
COMMAND(verify);
COMMAND(smoke);
COMMAND(bench);
COMMAND(doctor);
COMMAND(pack);
COMMAND(notes);
COMMAND(takeover);
COMMAND(auto_check);
COMMAND(app);
/* Every application rule (the system's, then the caller's own) for list, status and doctor:
 * arr gets one object a rule, lines one line each, gone a sentence a line for each rule whose
 * pinned version is no longer installed (or whose file is damaged). */
struct strbuf;
/* Whether `app ARGS` changes the system's rules (and so the store): not with --user, not list. */
int app_writes_store(int argc, char **argv);
void app_rules_summary(const struct store *s, json_object *arr, struct strbuf *lines, struct strbuf *gone);

#endif
