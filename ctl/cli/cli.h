/* What the command-line layer hands a command, and what a command hands back. */
#ifndef TB_CLI_H
#define TB_CLI_H

#include <json-c/json.h>
#include <stdint.h>

#include "base/config.h"
#include "base/progress.h"
#include "store/store.h"
#include "base/error.h"
#include "store/pins.h"

struct cli {
	/* The store the command acts on: --store, else $TB323FU_MESA_DIR, else the default
	 * (common/storepath.h store_root), resolved once where the command line is read; never
	 * NULL. Everything that opens or checks the store takes this one. */
	const char *store_root;
	const char *store_option; /* --store as given, or NULL: what a hint repeats */
	struct config cfg;
	int json;
	int wait;
	int quiet; /* -q: the success sentence is not printed */
	const struct tb_progress *progress;
	struct pin pin; /* a reader's pin of the version it reads (cli_pin_version) */
	const char *name; /* the command, for the pin's "tb323fu-ctl mesa NAME" */
};

/* A command's result: exit code, one human sentence (or several lines), its JSON fields. */
struct outcome {
	int code;              /* TB_OK, or failed: main then exits with the reason's row's code */
	char *message;
	enum tb_reason reason; /* a failure's reason, carried whole (TB_R_FAILED, the first row,
				* when none was given); its id is said only at the end, from the table */
	json_object *fields; /* an object; "ok" and "message" are added by main */
	int fields_only;     /* status and list: the object has exactly docs/design.md §5's keys */
	int report;          /* the message is a report for stdout even when code says failed */
};

/* Whether a command prints its tables (smoke's tests, bench's figures) as it goes: not
 * with --json (they are in the object) nor with -q. */
static inline int cli_tables(const struct cli *c)
{
	return !c->json && !c->quiet;
}

void outcome_say(struct outcome *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int outcome_fail(struct outcome *o, const struct tb_error *e);
void outcome_str(struct outcome *o, const char *key, const char *value);
void outcome_int(struct outcome *o, const char *key, int64_t value);
void outcome_bool(struct outcome *o, const char *key, int value);

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

/* For a command that tests one installed version (smoke, bench): the version given (NULL:
 * current) when it is installed, reported as "version". Returns it (free it) or NULL with
 * the failure in o. */
char *cli_pick_version(const struct store *s, const char *version, struct outcome *o);
/* A reader pins the version it reads for as long as the command runs (store/pins.h), so
 * writers go on meanwhile but none removes it; 0, or the failure in o when the version went
 * before it was pinned. */
int cli_pin_version(struct cli *c, const struct store *s, const char *version, struct outcome *o);

#endif
