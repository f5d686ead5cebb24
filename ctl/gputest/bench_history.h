/* Every bench kept (docs/design.md §10): each run's ratio, interval, verdict, rounds, sides
 * and figures in the store's bench-history.json, newest last, bounded, so that a build that
 * is merely slower than the one before shows, and bisect --bench has figures to name. */
#ifndef TB_BENCH_HISTORY_H
#define TB_BENCH_HISTORY_H

#include <stddef.h>
#include <time.h>

#include "store/store.h"
#include "base/error.h"

struct json_object;

/* At most this many runs a version, and in all; the oldest go first. */
#define BENCH_HISTORY_PER_VERSION 50
#define BENCH_HISTORY_MAX 500
/* A run keeps at most this many figures, each string at most BENCH_HISTORY_TEXT_MAX bytes. */
#define BENCH_HISTORY_FIGURES 32
#define BENCH_HISTORY_TEXT_MAX 200
/* Readers take at most this many bytes of the file. */
#define BENCH_HISTORY_FILE_MAX ((size_t)8 << 20)

/* The run as the history keeps it, from bench_run's result: {"version","mesa_version","time",
 * "command","rounds","ratio","interval","verdict","rounds_needed","sides":{"store":{"version",
 * "opencl_vendor","vulkan_icd"},"distribution":{…}},"figures":[{"name","unit","ratio",
 * "interval","verdict","store","distribution"}]} (a figure's store and distribution: its
 * medians). mesa_version may be NULL. */
struct json_object *bench_history_entry(const char *version, const char *mesa_version,
					struct json_object *result, time_t when);

/* The runs of the history file's text (untrusted: any bytes) as an array, newest last: each
 * well-formed run rebuilt from its known keys (strings bounded, numbers finite, a verdict of
 * the four), the others left out, the bounds applied; NULL when text is not the history's
 * JSON ({"runs":[…]}). */
struct json_object *bench_history_parse(const char *text, size_t len);

/* The file's text for runs (an array as bench_history_parse gives it). Free it. */
char *bench_history_format(struct json_object *runs);

/* Adds entry (taking it) at the end of runs, then drops the oldest runs beyond the bounds. */
void bench_history_append(struct json_object *runs, struct json_object *entry);

/* The store's history, an empty array when there is none or it cannot be read. */
struct json_object *bench_history_load(const struct store *s);

/* Records entry (taken): the history read, appended to, bounded and put in place by rename.
 * A reader's write, as smoke/<v>.json's: no store lock (two benches ending at once: the last
 * rename wins and the other's run is not kept). */
int bench_history_record(struct store *s, struct json_object *entry, struct tb_error *e);

/* The runs of version (NULL: all) as lines for the page and --history: [{"version","time",
 * "command","rounds","ratio","interval","verdict","rounds_needed","figure"}], with figure NULL
 * the whole, else that figure's (runs without it left out). Newest last. */
struct json_object *bench_history_select(struct json_object *runs, const char *version,
					 const char *figure);

/* The last run of each version in runs (an array of bench_history_select's), in release order,
 * oldest version first. */
struct json_object *bench_history_latest(struct json_object *lines);

/* The newest installed version's last run slower than the one before it in release order
 * among the versions the history has: 1 with both named (allocated) and the ratio of the newer's
 * to the older's whole ratio, else 0. newest: the version in question. */
int bench_history_slower(struct json_object *runs, const char *newest, char **before,
			 double *ratio_newest, double *ratio_before);

#endif
