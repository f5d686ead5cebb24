#ifndef TB_CLI_PROGRESS_H
#define TB_CLI_PROGRESS_H

#include "base/progress.h"
#include "common/reasons.h"

/* mode: auto (a bar when stderr is a terminal), bar, json, none. NULL: no progress. */
const struct tb_progress *cli_progress(const char *mode);
/* With JSON progress, the last line: {"op":"finished","operation",…} (docs/design.md §13). */
void cli_progress_finished(const char *operation, int code, enum tb_reason reason, const char *message);

#endif
