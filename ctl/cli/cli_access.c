/* Write access to the store, checked before a writer touches it (ctl/cli/cli_access.h). */
#include "cli/cli_access.h"
#include "cli/cli_hints.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "common/storepath.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_store_access(const char *dir)
{
	static const char *const parts[] = {"", STORE_DIRS};
	struct stat st;
	if (stat(dir, &st) == 0) {
		for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
			char *p = *parts[i] ? path_join(dir, parts[i]) : xstrdup(dir);
			/* a folder only: a link, a file or a FIFO there is the store's damage, which
			 * its checks name (store/layout.h), not a permission to ask for */
			struct stat part;
			int bad = lstat(p, &part) == 0 && S_ISDIR(part.st_mode) && access(p, W_OK | X_OK) != 0 ? errno : 0;
			free(p);
			if (bad)
				return bad;
		}
		return 0;
	}
	/* Not there yet: the nearest directory that exists must let us create it. */
	char *up = xstrdup(dir);
	int bad = 0;
	for (;;) {
		char *slash = strrchr(up, '/');
		if (!slash) {
			bad = access(".", W_OK | X_OK) ? errno : 0;
			break;
		}
		*(slash == up ? slash + 1 : slash) = '\0';
		if (stat(up, &st) == 0) {
			bad = access(up, W_OK | X_OK) ? errno : 0;
			break;
		}
		if (slash == up)
			break;
	}
	free(up);
	return bad;
}

/* The command line again, quoted for a shell where needed, after `sudo`. */
static char *sudo_line(int argc, char **argv)
{
	struct strbuf sb = {0};
	sb_append(&sb, "sudo tb323fu-ctl");
	for (int i = 0; i < argc; i++)
		sb_append_shell_word(&sb, argv[i]);
	char *out = xstrdup(sb.buf);
	sb_free(&sb);
	return out;
}

int cli_writer_preflight(struct cli *c, const char *name, int line_argc, char **line,
			 struct outcome *o)
{
	const char *dir = c->store_root;
	int err = cli_store_access(dir);
	if (!err)
		return -1;
	struct tb_error e = {0};
	if (err == EROFS) {
		tb_fail(&e, TB_R_READ_ONLY,
			"%s changes the store %s, which is on a read-only file system", name, dir);
	} else {
		char *sudo = sudo_line(line_argc, line);
		tb_fail(&e, TB_R_PERMISSION,
			"%s changes the store %s and needs root for that: run `%s`", name, dir,
			sudo);
		free(sudo);
	}
	return outcome_fail(o, &e);
}
