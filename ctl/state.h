/* <store>/state: key=value lines (enabled, trial, tries, max, failed, failed_reason, boot). */
#ifndef TB_STATE_H
#define TB_STATE_H

#include "store.h"

struct state {
	int enabled;         /* session-wide use switched on */
	char *trial;         /* version on trial, or NULL */
	int tries;           /* unconfirmed starts counted for the trial */
	int max;             /* max_tries in force when the trial began */
	char *failed;        /* version that failed (smoke or trial), or NULL */
	char *failed_reason;
	char *boot;          /* boot id last counted */
};

void state_load(const struct store *s, struct state *st);
int state_save(struct store *s, const struct state *st, struct tb_error *e);
void state_free(struct state *st);
void state_set(char **field, const char *value);

#endif
