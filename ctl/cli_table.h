/* The command line as data: every command with its summary, usage, options and example.
 * Parsing, help, "did you mean …?" and shell completion all read this one table, so a new
 * command or option is added here and nowhere else. */
#ifndef TB_CLI_TABLE_H
#define TB_CLI_TABLE_H

#include <stdio.h>

#include "cli.h"

struct cli_option {
	const char *name; /* "--no-smoke" */
	const char *arg;  /* its value's placeholder ("FILE"), or NULL for a flag */
	const char *help;
};

/* What a command's free arguments are, for completion. */
enum cli_operand { OPERAND_NONE, OPERAND_VERSION, OPERAND_FILE, OPERAND_DIR, OPERAND_OTHER,
		    OPERAND_APP /* app's words, then its choice */ };

struct cli_command {
	const char *name;
	command_fn fn;
	const char *args;    /* what follows the name in its usage line */
	const char *summary; /* one line */
	const char *example;
	int writes;          /* changes the store: needs write access to it */
	enum cli_operand operand;
	const struct cli_option *options; /* ends with {NULL} */
};

extern const struct cli_command cli_commands[];
extern const size_t cli_commands_count;
/* Options taken before `mesa` and after any command. Ends with {NULL}. */
extern const struct cli_option cli_global_options[];
extern const size_t cli_global_options_count;

const struct cli_command *cli_command_find(const char *name);
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
