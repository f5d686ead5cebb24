/* A program's path checked part by part (base/trusted_path.h). The walk resolves symbolic
 * links itself, because realpath would hide the folders the links sit in, and whoever can
 * write one of those can point the link elsewhere. */
#include "base/trusted_path.h"
#include "base/alloc.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_LINKS 40 /* as the kernel's own resolution */

static int owner_ok(uid_t owner)
{
	return owner == 0 || (geteuid() != 0 && (owner == geteuid() || owner == getuid()));
}

/* The caller's private group (Debian's user private groups, umask 002): named as the user,
 * the user's primary group, and no one else listed in it. Writable by it is writable by the
 * user alone. Never for root, which is held to the rule as sudo states it. */
static int private_group(gid_t gid)
{
	if (geteuid() == 0)
		return 0;
	struct passwd *pw = getpwuid(geteuid());
	if (!pw || pw->pw_gid != gid)
		return 0;
	char *user = xstrdup(pw->pw_name);
	struct group *gr = getgrgid(gid);
	int yes = gr && !strcmp(gr->gr_name, user) && (!gr->gr_mem || !gr->gr_mem[0]);
	free(user);
	return yes;
}

/* Writable by group or others; a sticky folder's entries are only their owners' to replace. */
static int others_may_write(const struct stat *st)
{
	mode_t w = st->st_mode & (S_IWGRP | S_IWOTH);
	if (w == S_IWGRP && st->st_uid == geteuid() && private_group(st->st_gid))
		w = 0;
	return w && !(S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX));
}

static int refuse(const char *what, const char *path, const char *part, const struct stat *st,
		  struct tb_error *e)
{
	const char *kind = S_ISDIR(st->st_mode) ? "the folder" : "the file";
	int root = geteuid() == 0;
	if (!owner_ok(st->st_uid))
		return tb_fail(e, TB_R_UNSAFE_PATH,
			       "refusing to run %s %s: %s %s belongs to user %u (not %s), who could "
			       "replace what runs; give it to %s (chown %s %s) or put the program where "
			       "only %s can change it",
			       what, path, kind, part, (unsigned)st->st_uid, root ? "root" : "you or root",
			       root ? "root" : "yourself", root ? "root" : "\"$USER\"", part,
			       root ? "root" : "you");
	return tb_fail(e, TB_R_UNSAFE_PATH,
		       "refusing to run %s %s: %s %s is writable by %s (mode %04o), so they "
		       "could replace what runs; take that away (chmod go-w %s) or put the program where "
		       "only %s can change it",
		       what, path, kind, part, st->st_mode & S_IWOTH ? "others" : "its group",
		       (unsigned)(st->st_mode & 07777), part, root ? "root" : "you");
}

/* The last component of dir (a resolved path without links) removed: its parent. */
static void up(char *dir)
{
	char *slash = strrchr(dir, '/');
	if (slash == dir)
		dir[1] = '\0';
	else if (slash)
		*slash = '\0';
}

int trusted_program_path(const char *path, const char *what, struct tb_error *e)
{
	char cwd[PATH_MAX];
	if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
		return tb_fail_errno(e, TB_R_IO_ERROR, "cannot check %s %s", what, path);
	/* todo: the path still to walk; dir: the folders walked so far, each one checked. */
	char *todo = path[0] == '/' ? xstrdup(path) : xasprintf("%s/%s", cwd, path);
	char *dir = xstrdup("/");
	struct stat st;
	int rc = lstat("/", &st) ? tb_fail_errno(e, TB_R_IO_ERROR, "cannot check %s %s", what, path)
	       : !owner_ok(st.st_uid) || others_may_write(&st) ? refuse(what, path, "/", &st, e)
							       : TB_OK;
	for (int links = 0; !rc && *todo;) {
		char *rest = todo + strspn(todo, "/");
		size_t n = strcspn(rest, "/");
		char *name = xasprintf("%.*s", (int)n, rest);
		char *after = xstrdup(rest + n);
		free(todo);
		todo = after;
		if (!strcmp(name, "..")) {
			up(dir);
		} else if (*name && strcmp(name, ".")) {
			char *next = path_join(strcmp(dir, "/") ? dir : "", name);
			char target[PATH_MAX];
			ssize_t len;
			if (lstat(next, &st) != 0) {
				rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot check %s %s (%s)", what, path, next);
			} else if (S_ISLNK(st.st_mode)) {
				/* The link's folder is dir, already checked: go on where it points. */
				if (++links > MAX_LINKS || (len = readlink(next, target, sizeof target - 1)) < 0) {
					errno = links > MAX_LINKS ? ELOOP : errno;
					rc = tb_fail_errno(e, TB_R_IO_ERROR, "cannot check %s %s", what, path);
				} else {
					target[len] = '\0';
					char *joined = xasprintf("%s/%s", target, todo);
					free(todo);
					todo = joined;
					if (target[0] == '/')
						strcpy(dir, "/");
				}
			} else if (!owner_ok(st.st_uid) || others_may_write(&st)) {
				rc = refuse(what, path, next, &st, e);
			} else {
				free(dir);
				dir = next;
				next = NULL;
			}
			free(next);
		}
		free(name);
	}
	free(todo);
	free(dir);
	return rc;
}
