/* Several store files replaced together: every temporary is written first, then a journal
 * naming them, then the renames. A kill before the journal leaves only temporaries (removed
 * as leftovers); a kill after it is finished by the next writer. */
#include "store/txn.h"
#include "base/testhook.h"
#include "base/error.h"
#include "base/alloc.h"
#include "base/strbuf.h"
#include "base/fs.h"
#include "base/text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define JOURNAL_HEAD "tb323fu-journal 1\n"

void txn_init(struct txn *t, const struct store *s)
{
	memset(t, 0, sizeof *t);
	t->s = s;
}

/* .<name>.tmp.txn beside rel, a link's temporary (symlink(2) never follows one planted there):
 * a name store_lock removes as a leftover. */
static char *temp_for(const char *rel)
{
	const char *slash = strrchr(rel, '/');
	if (!slash)
		return xasprintf(".%s.tmp.txn", rel);
	return xasprintf("%.*s/.%s.tmp.txn", (int)(slash - rel), rel, slash + 1);
}

static void add_op(struct txn *t, char *tmp, const char *rel)
{
	t->ops = xrealloc(t->ops, (t->n + 1) * sizeof *t->ops);
	t->ops[t->n].tmp = tmp;
	t->ops[t->n].final = xstrdup(rel);
	t->n++;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A file's temporary is .<name>.tmp.XXXXXX beside rel, a fresh file of a name no one can
 * guess ahead (mkostemp: O_CREAT|O_EXCL, and O_NOFOLLOW), which the journal names. */
int txn_put_file(struct txn *t, const char *rel, const char *data, size_t len, struct tb_error *e)
{
	const char *slash = strrchr(rel, '/');
	char *tmp = slash ? xasprintf("%.*s/.%s.tmp.XXXXXX", (int)(slash - rel), rel, slash + 1)
			  : xasprintf(".%s.tmp.XXXXXX", rel);
	char *path = path_join(t->s->root, tmp);
	int rc = TB_OK;
	int fd = mkostemp(path, O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) /* the name made */
		memcpy(tmp + strlen(tmp) - 6, path + strlen(path) - 6, 6);
	if (fd < 0 || write_all(fd, data, len) != 0 || fchmod(fd, 0644) != 0 || fsync(fd) != 0)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot write %s/%s", t->s->root, rel);
	if (fd >= 0)
		close(fd);
	free(path);
	if (fd < 0) {
		free(tmp);
		return rc;
	}
	add_op(t, tmp, rel); /* added even on failure, so that abort removes it */
	return rc;
}

int txn_put_link(struct txn *t, const char *rel, const char *target, struct tb_error *e)
{
	if (!target) {
		txn_remove(t, rel);
		return TB_OK;
	}
	char *tmp = temp_for(rel);
	char *path = path_join(t->s->root, tmp);
	unlink(path);
	int rc = TB_OK;
	if (symlink(target, path) != 0)
		rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot create the link %s/%s", t->s->root, rel);
	free(path);
	add_op(t, tmp, rel);
	return rc;
}

void txn_remove(struct txn *t, const char *rel)
{
	add_op(t, NULL, rel);
}

static void txn_free(struct txn *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->ops[i].tmp);
		free(t->ops[i].final);
	}
	free(t->ops);
	t->ops = NULL;
	t->n = 0;
}

void txn_abort(struct txn *t)
{
	for (size_t i = 0; i < t->n; i++) {
		if (!t->ops[i].tmp)
			continue;
		char *p = path_join(t->s->root, t->ops[i].tmp);
		unlink(p);
		free(p);
	}
	txn_free(t);
}

/* Renames (or removes) one entry; a temporary already gone was renamed before a kill. One
 * that cannot take its place (a folder stands there) goes: no temporary stays behind. */
static void apply_op(const char *root, const char *tmp, const char *final)
{
	char *f = path_join(root, final);
	if (tmp) {
		char *p = path_join(root, tmp);
		if (rename(p, f) != 0 && errno != ENOENT)
			unlink(p);
		free(p);
	} else {
		unlink(f);
	}
	free(f);
}

/* Every directory an entry lives in, flushed once the renames are done. */
static void sync_dirs(const char *root, const char *const *finals, size_t n)
{
	fsync_dir(root);
	for (size_t i = 0; i < n; i++) {
		const char *slash = strrchr(finals[i], '/');
		if (!slash)
			continue;
		char *d = xasprintf("%s/%.*s", root, (int)(slash - finals[i]), finals[i]);
		fsync_dir(d);
		free(d);
	}
}

int txn_commit(struct txn *t, struct tb_error *e)
{
	struct strbuf j = {0};
	sb_append(&j, JOURNAL_HEAD);
	for (size_t i = 0; i < t->n; i++)
		sb_appendf(&j, "%s\t%s\t%s\n", t->ops[i].tmp ? "mv" : "rm", t->ops[i].tmp ? t->ops[i].tmp : "-",
			   t->ops[i].final);
	sb_append(&j, "end\n");
	char *jpath = path_join(t->s->root, STORE_JOURNAL);
	int rc = atomic_write_file(jpath, j.buf, j.len, 0644, e);
	sb_free(&j);
	if (rc) {
		free(jpath);
		txn_abort(t);
		return rc;
	}
	testhook_pause("journal");
	const char **finals = xcalloc(t->n ? t->n : 1, sizeof *finals);
	for (size_t i = 0; i < t->n; i++) {
		apply_op(t->s->root, t->ops[i].tmp, t->ops[i].final);
		finals[i] = t->ops[i].final;
		if (i + 1 == t->n / 2)
			testhook_pause("renaming");
	}
	sync_dirs(t->s->root, finals, t->n);
	testhook_pause("renamed");
	free(finals);
	unlink(jpath);
	fsync_dir(t->s->root);
	free(jpath);
	txn_free(t);
	return TB_OK;
}

/* A journal names paths under the root only: no absolute paths, no "..". */
static int rel_ok(const char *p)
{
	if (!*p || *p == '/')
		return 0;
	for (const char *c = p; *c; c++)
		if (c[0] == '.' && c[1] == '.' && (c == p || c[-1] == '/') && (c[2] == '/' || !c[2]))
			return 0;
	return 1;
}

int txn_pending(const struct store *s)
{
	/* a file of ours only: a link or a FIFO planted there is no journal (store/layout.h) */
	char *jpath = path_join(s->root, STORE_JOURNAL);
	struct stat st;
	int yes = lstat(jpath, &st) == 0 && S_ISREG(st.st_mode);
	free(jpath);
	return yes;
}

int txn_recover(const struct store *s)
{
	char *jpath = path_join(s->root, STORE_JOURNAL);
	size_t len = 0;
	/* never through a link planted there, never from a FIFO */
	char *text = read_small_file_nofollow(jpath, 64 * 1024, &len);
	if (!text) {
		free(jpath);
		return 0;
	}
	int whole = len == strlen(text) && !strncmp(text, JOURNAL_HEAD, strlen(JOURNAL_HEAD)) &&
		    len >= 4 && !strcmp(text + len - 4, "end\n");
	char *cursor = text + strlen(JOURNAL_HEAD), *line;
	const char **finals = xcalloc(len, sizeof *finals);
	size_t n = 0;
	while (whole && (line = next_line(&cursor))) {
		char *op = strtok(line, "\t"), *tmp = strtok(NULL, "\t"), *final = strtok(NULL, "\t");
		if (!op || !strcmp(op, "end") || !tmp || !final || !rel_ok(final))
			continue;
		if (!strcmp(op, "mv") && rel_ok(tmp))
			apply_op(s->root, tmp, final);
		else if (!strcmp(op, "rm"))
			apply_op(s->root, NULL, final);
		else
			continue;
		finals[n++] = final;
	}
	sync_dirs(s->root, finals, n);
	free(finals);
	free(text);
	unlink(jpath);
	fsync_dir(s->root);
	free(jpath);
	return 1;
}
