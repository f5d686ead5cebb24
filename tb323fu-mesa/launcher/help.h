/* The launcher's command line as data: commands, options, examples. Help, "did you mean
 * …?" and completion read this table; the launch path (`run`) never does unless asked. */
#ifndef TB_LAUNCHER_HELP_H
#define TB_LAUNCHER_HELP_H

/* Prints the program's help (cmd NULL) or one command's; returns the exit code (0, or 2
 * for an unknown command). */
int help_print(const char *cmd);
/* `tb323fu-mesa --version`. */
int version_print(void);

/* A usage error for word (an option of cmd, NULL: of the program; or a command when cmd is
 * NULL and word does not start with '-'), with the nearest known word; returns 2. */
int unknown_word(const char *cmd, const char *word);

/* The bash completion's answer: words[n-1] is being typed after words[0..n-2]. */
void complete_print(int n, char **words);

#endif
