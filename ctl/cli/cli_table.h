/* The command line as data: every command with its summary, usage, options and example.
 * Parsing, help, "did you mean …?" and shell completion all read this one table, so a new
 * command or option is added here and nowhere else. */
#ifndef TB_CLI_TABLE_H
#define TB_CLI_TABLE_H

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
	size_t offset;       /* the target: where in the command's options (or the globals) */
	int min, max;        /* OPT_INT */
	const char *choices; /* OPT_CHOICE */
	int writes;          /* given, the command changes the store (1: verify --repair) or
			      * leaves it to be read (-1: app --user, which changes the caller's files) */
};

/* What a command's free argument is: for completion, and the parser's check of it. */
enum cli_operand {
	OPERAND_NONE,
	OPERAND_VERSION, /* an installed version (completed from the store) */
	OPERAND_RELEASE, /* a version of the release list: checked like one, not completed */
	OPERAND_FILE,
	OPERAND_DIR,
	OPERAND_APP,        /* an application (its desktop file ID or name): not completed */
	OPERAND_APP_CHOICE, /* an application, then current|previous|VERSION|distro */
};

/* How the command body gets the store: opened before it runs, closed after. */
enum cli_open { OPEN_READER, OPEN_WRITER, OPEN_NONE };

struct cli_command {
	const char *name;
	command_fn fn;
	const char *args;    /* what follows the name in its usage line */
	const char *summary; /* one line */
	const char *example;
	int writes;          /* changes the store: needs write access to it */
	enum cli_operand operand;
	const struct cli_option *options; /* ends with {NULL} */
	enum cli_open open;
	size_t operand_at;    /* where in the options the operand goes (app set's two: in a row) */
	int operand_required; /* how many operands must be given */
	check_fn check;       /* usage rules between options, before the store opens; or NULL */
	/* A group ("app"): its commands, named "app set"…, taken from the word after the
	 * group's; ends with {NULL}. NULL for a command. */
	const struct cli_command *subs;
	/* A writer that may make the store where there is none (it brings a release or a rule
	 * into it); the others answer that there is no store there and make none. */
	int makes_store;
	/* Completion offers only the versions the command would take (remove: not current,
	 * previous or pinned). */
	int removes_version;
};

extern const struct cli_command cli_commands[];
extern const size_t cli_commands_count;
/* Options taken before `mesa` and after any command. Ends with {NULL}. */
extern const struct cli_option cli_global_options[];
extern const size_t cli_global_options_count;

const struct cli_command *cli_command_find(const char *name);
/* The command of group named by word ("set" of "app"), or NULL. */
const struct cli_command *cli_sub_find(const struct cli_command *group, const char *word);
const struct cli_option *cli_option_find(const struct cli_option *list, const char *name);

/* Help, for `--help`, `help [COMMAND]` and a usage error's pointer to it. */
void cli_help_top(FILE *f);
void cli_help_command(FILE *f, const struct cli_command *cmd);

/* "did you mean …?" for a word that is not a command, or not an option of cmd (NULL: the
 * global options); NULL when nothing is close. */
const char *cli_suggest_command(const char *word);
const char *cli_suggest_option(const struct cli_command *cmd, const char *word);

/* Prints the words that may follow words[0..n-1] and start with the last of them (the
 * word being completed), one a line: the answer behind the bash completion. */
void cli_complete(FILE *f, int n, char **words);

#endif
