/* The env files the control tool writes for the launcher (docs/design.md §3): `KEY=VALUE` lines that
 * POSIX sh, systemd's environment.d(5) and this reader all understand the same way.
 *
 * Accepted: empty lines, lines starting with '#', and `NAME=VALUE` where NAME is a shell name
 * and VALUE is literal (no quoting, no expansion, none of the characters sh or environment.d
 * would interpret). The one expansion is the library path form
 *     LD_LIBRARY_PATH=<dir>${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
 * which puts <dir> in front of an inherited LD_LIBRARY_PATH. Anything else is refused, so a
 * damaged file never launches a program with half of its variables. */
#ifndef TB_ENVFILE_H
#define TB_ENVFILE_H

#include <stddef.h>

/* Limits: the real files have five lines of paths. */
#define ENVFILE_MAX_BYTES 65536
#define ENVFILE_MAX_VARS 64

/* The suffix that makes a LD_LIBRARY_PATH line prepend instead of replace. */
#define ENVFILE_LD_SUFFIX "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

struct env_var {
	const char *name;  /* points into the parsed text */
	const char *value; /* for a prepend line: <dir> alone */
	int prepend;	   /* 1: value goes before the inherited value, joined by ':' */
	unsigned line;
};

struct env_list {
	struct env_var vars[ENVFILE_MAX_VARS];
	size_t count;
};

/* Why a file was refused: the line (1-based, 0 for the whole file) and a short phrase. */
struct env_problem {
	unsigned line;
	const char *what;
};

/* Parses len bytes of text in place (newlines and '=' become NULs; text must have room for
 * one more byte, len + 1). Returns 0, or -1 with *why filled. */
int envfile_parse(char *text, size_t len, struct env_list *out, struct env_problem *why);

/* Reads a whole env file with read(2) into buf (cap bytes, NUL-terminated). Returns the
 * length, or -errno (-E2BIG when it does not fit, -ESPIPE when it is not a regular file).
 * No stdio: this is on every launch. */
long envfile_read(const char *path, char *buf, size_t cap);

/* 1 when name is a shell variable name ([A-Za-z_][A-Za-z0-9_]*), else 0. */
int env_name_ok(const char *name, size_t len);

/* 1 when every byte of value may stand unquoted in both sh and environment.d. */
int env_value_ok(const char *value, size_t len);

/* The value a variable gets when applied over inherited (NULL: not set). Writes into out
 * (cap bytes) and returns the length, or -1 when it does not fit. */
long env_var_apply(const struct env_var *v, const char *inherited, char *out, size_t cap);

/* Finds the last line setting name (later lines win, as in sh); NULL when none. */
const struct env_var *env_list_find(const struct env_list *l, const char *name);

#endif
