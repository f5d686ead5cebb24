/* What a command is to the engine: its entry, written by the command's own file under
 * ctl/cmd/ with designated initializers, and listed in order by ctl/main.c (as git.c lists
 * its builtins). The engine (parse.c, help.c, state_first.c) reads entries and knows no
 * command by name; docs/design.md §5. */
#ifndef TB_CLI_COMMAND_H
#define TB_CLI_COMMAND_H

#include <stddef.h>
#include <stdio.h>

#include "cli/cli.h"

/* What an option's value is, and so how the parser (ctl/cli/parse.c) stores it. */
enum cli_kind {
	OPT_FLAG,    /* no value: sets an int to 1 */
	OPT_STRING,  /* a const char * */
	OPT_LIST,    /* a comma-separated list, kept as it is (the command knows the names) */
	OPT_INT,     /* an int from min to max */
	OPT_CHOICE,  /* one of the words of choices ("quick|full") */
	OPT_HELP,    /* --help: stops the parse and shows help */
	OPT_VERSION, /* --version: stops the parse and prints the program's version */
};

struct cli_option {
	const char *name; /* "--no-smoke" */
	const char *arg;  /* its value's placeholder ("FILE"), or NULL for a flag */
	const char *help;
	enum cli_kind kind;
	size_t offset;       /* the target: where in the command's options struct (or the globals) */
	int min, max;        /* OPT_INT */
	const char *choices; /* OPT_CHOICE */
	int writes;          /* given, the command changes the store (1: verify --repair) or
			      * leaves it to be read (-1: --dry-run, app --user) */
};

/* Option rows: each names its target in the command's own options struct. */
#define CLI_FLAG(opt, type, field, text) \
	{.name = (opt), .help = (text), .kind = OPT_FLAG, .offset = offsetof(type, field)}
#define CLI_STRING(opt, placeholder, type, field, text) \
	{.name = (opt), .arg = (placeholder), .help = (text), .kind = OPT_STRING, .offset = offsetof(type, field)}
#define CLI_LIST(opt, placeholder, type, field, text) \
	{.name = (opt), .arg = (placeholder), .help = (text), .kind = OPT_LIST, .offset = offsetof(type, field)}
#define CLI_CHOICE(opt, placeholder, words, type, field, text)                                   \
	{.name = (opt), .arg = (placeholder), .help = (text), .kind = OPT_CHOICE, .choices = (words), \
	 .offset = offsetof(type, field)}
#define CLI_INT(opt, placeholder, lo, hi, type, field, text)                                        \
	{.name = (opt), .arg = (placeholder), .help = (text), .kind = OPT_INT, .min = (lo), .max = (hi), \
	 .offset = offsetof(type, field)}
/* --dry-run: the store is only read, whoever may write it (docs/design.md §11). */
#define CLI_DRY_RUN(type)                                                                        \
	{.name = "--dry-run", .help = "say exactly what the command would do, and change nothing", \
	 .kind = OPT_FLAG, .offset = offsetof(type, dry_run), .writes = -1}
#define CLI_END {.name = NULL}

/* What a command's free argument is: for completion, and the parser's check of it. */
enum cli_operand {
	OPERAND_NONE,
	OPERAND_VERSION, /* an installed version (completed from the store) */
	OPERAND_RELEASE, /* a version of the release list: checked like one, not completed */
	OPERAND_FILE,
	OPERAND_DIR,
	OPERAND_APP,        /* an application (its desktop file ID or name): not completed */
	OPERAND_APP_CHOICE, /* an application, then current|previous|VERSION|distro */
	OPERAND_WORD,       /* a word the body checks (flatpak's VERSION or current): not completed */
};

/* How the command body gets the store: opened before it runs, closed after. */
enum cli_open { OPEN_READER, OPEN_WRITER, OPEN_NONE };

struct store;
struct lc_view;

/* A command body: its parsed options (its own struct), the store opened as the entry says
 * (NULL for OPEN_NONE). Returns the exit code, o holding what is said. */
typedef int (*command_fn)(struct cli *c, const void *opts, struct store *s, struct outcome *o);
/* Usage rules between a command's options, checked before the store opens; 0 when fine. */
typedef int (*check_fn)(const void *opts, struct outcome *o);
/* The answer a caller who may not write the store gets from its state as it is (no lock,
 * docs/design.md §11): 1 with o filled when the command would change nothing or must
 * refuse, through the same engine checks its body makes under the lock; 0 to go on (to
 * the sentence that the command needs root). */
typedef int (*answer_fn)(const struct store *s, const struct lc_view *v, const void *opts,
			 struct outcome *o);

struct cli_command {
	const char *name;    /* "remove", or "app set" for a group's command */
	const char *args;    /* what follows the name in its usage line */
	const char *summary; /* one line */
	const char *example;
	/* Words other tools use for it ("uninstall" for remove), taken as meant, not mistyped,
	 * by "did you mean"; NULL, or a list ending with NULL. */
	const char *const *synonyms;
	const struct cli_option *options; /* NULL, or rows ending with CLI_END */
	size_t opts_size;                 /* sizeof its options struct (0: none) */
	enum cli_operand operand;
	size_t operand_at;    /* where in the options the operand goes (app set's two: in a row) */
	int operand_required; /* how many operands must be given */
	enum cli_open open;
	int writes;      /* changes the store: needs write access to it */
	int makes_store; /* a writer that may make the store where there is none (it brings a
			  * release or a rule into it); the others answer that there is none */
	int removes_version; /* completion offers only the versions it would take */
	/* Where there is no store: the goal already holds (exit 0, "nothing to switch off"),
	 * for commands a package's removal or the boot unit run; NULL: nothing to work on. */
	const char *done_without_store;
	answer_fn answer; /* or NULL: a caller without access is told it needs root */
	/* Its VERSION operand names no version of the store: the argument's error, said to
	 * everyone before any lock is taken (`install 2026.1.1` is not "busy"); NULL: none. */
	int (*absent)(const struct cli *c, const struct store *s, const char *version, struct outcome *o);
	check_fn check;   /* or NULL */
	command_fn run;   /* NULL for a group */
	/* A group ("app"): its commands, taken from the word after the group's; ends with NULL. */
	const struct cli_command *const *subs;
	/* A group's sentence on who may run its writers (help's), NULL: the system's files'. */
	const char *writers;
};

/* The program's commands in help's order (ctl/main.c), and its global options. */
struct cli_program {
	const struct cli_command *const *commands;
	size_t count;
};

/* The options taken before `mesa` and after any command, once parsed. */
struct cli_globals {
	const char *store, *config, *progress;
	int json, wait;
	int quiet; /* -q: no success sentence, no progress; errors still said */
};
/* Their rows (targets in struct cli_globals). Ends with CLI_END. */
extern const struct cli_option cli_global_options[];

const struct cli_command *cli_command_find(const struct cli_program *p, const char *name);
/* The command of group named by word ("set" of "app"), or NULL. */
const struct cli_command *cli_sub_find(const struct cli_command *group, const char *word);
const struct cli_option *cli_option_find(const struct cli_option *list, const char *name);

/* Help, for `--help`, `help [COMMAND]` and a usage error's pointer to it. */
void cli_help_top(FILE *f, const struct cli_program *p);
void cli_help_command(FILE *f, const struct cli_command *cmd);

/* "did you mean …?" for a word that is not a command, or not an option of cmd (NULL: the
 * global options); NULL when nothing is close. */
const char *cli_suggest_command(const struct cli_program *p, const char *word);
const char *cli_suggest_option(const struct cli_command *cmd, const char *word);

/* Prints the words that may follow words[0..n-1] and start with the last of them (the
 * word being completed), one a line: the answer behind the bash completion. */
void cli_complete(FILE *f, const struct cli_program *p, int n, char **words);

#endif
