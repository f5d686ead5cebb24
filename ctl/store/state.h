/* <store>/state: key=value lines (enabled, trial, tries, max, failed, failed_reason,
 * failed_reason_id, boot, gl). */
#ifndef TB_STATE_H
#define TB_STATE_H

#include "store/store.h"
#include "base/error.h"
#include "base/strbuf.h"

#define STATE_MAX_BYTES (64 * 1024)

/* The session's GL (docs/design.md §6): the distribution's, left alone (no gl line), the
 * current version's own, or its Zink. */
enum session_gl { SESSION_GL_DISTRO, SESSION_GL_NATIVE, SESSION_GL_ZINK };

struct state {
	int enabled;         /* session-wide use switched on */
	char *trial;         /* version on trial, or NULL */
	int tries;           /* unconfirmed starts counted for the trial */
	int max;             /* max_tries in force when the trial began */
	char *failed;        /* version that failed (smoke or trial), or NULL */
	char *failed_reason;    /* a sentence for people */
	char *failed_reason_id; /* its stable reason id (docs/design.md), or NULL */
	char *boot;          /* boot id last counted */
	enum session_gl gl;  /* what `on` gave the session's GL */
};

/* Parses a state file's text strictly (docs/design.md §12, "A corrupt state"): 0 when it is
 * what writers write, -1 when it is damaged (then *st is all off). */
int state_parse(const char *text, size_t len, struct state *st);
/* Reads <store>/state: 0 when it is whole or absent (all off), 1 when it is damaged (all
 * off; the life cycle repairs it from the links and env.conf). */
int state_load(const struct store *s, struct state *st);
/* The file's text. */
void state_format(const struct state *st, struct strbuf *sb);
int state_save(struct store *s, const struct state *st, struct tb_error *e);
void state_free(struct state *st);
void state_set(char **field, const char *value);
/* A copy of src into dst (dst not initialised). */
void state_copy(struct state *dst, const struct state *src);
/* Records that version failed (its reason, kept as its id; a sentence without command-line
 * syntax); version NULL clears the record as state_clear_failed does. */
void state_set_failed(struct state *st, const char *version, enum tb_reason reason,
		      const char *sentence);
void state_clear_failed(struct state *st);
/* "distro", "native", "zink"; and back (-1: none of them). */
const char *session_gl_word(enum session_gl gl);
int session_gl_parse(const char *word);

#endif
