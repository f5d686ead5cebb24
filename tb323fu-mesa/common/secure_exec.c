/* Programs that start with AT_SECURE: file modes, file capabilities, the auxiliary vector. */
#include "common/secure_exec.h"

#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef AT_SECURE
#define AT_SECURE 23
#endif

int secure_exec_file(const char *path, int for_caller)
{
	struct stat st;
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	int why = 0;
	if ((st.st_mode & S_ISUID) && (!for_caller || st.st_uid != geteuid()))
		why |= SECURE_SETUID;
	/* set-group-ID without group execution is mandatory locking, not a set-id program */
	if ((st.st_mode & S_ISGID) && (st.st_mode & S_IXGRP) && (!for_caller || st.st_gid != getegid()))
		why |= SECURE_SETGID;
	if ((!for_caller || geteuid() != 0) && getxattr(path, "security.capability", NULL, 0) > 0)
		why |= SECURE_CAPS;
	return why;
}

const char *secure_exec_words(int why)
{
	if (why & SECURE_CAPS)
		return (why & (SECURE_SETUID | SECURE_SETGID)) ? "file capabilities and a set-id bit"
							       : "file capabilities";
	if ((why & SECURE_SETUID) && (why & SECURE_SETGID))
		return "the set-user-ID and set-group-ID bits";
	return why & SECURE_SETUID ? "the set-user-ID bit" : "the set-group-ID bit";
}

static int executable(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

int secure_exec_lookup(const char *name, char *out, size_t cap)
{
	size_t n = strlen(name);
	if (strchr(name, '/')) {
		if (n >= cap)
			return -1;
		memcpy(out, name, n + 1);
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;;) {
		size_t dl = strcspn(p, ":");
		/* an empty entry is the working directory, as execvp takes it */
		const char *dir = dl ? p : ".";
		size_t dn = dl ? dl : 1;
		if (dn + 1 + n < cap) {
			memcpy(out, dir, dn);
			out[dn] = '/';
			memcpy(out + dn + 1, name, n + 1);
			if (executable(out))
				return 0;
		}
		if (!p[dl])
			return -1;
		p += dl + 1;
	}
}

int secure_exec_pid(long pid)
{
	char path[64] = "/proc/";
	char digits[24];
	int k = 0;
	if (pid <= 0)
		return -1;
	for (long v = pid; v && k < 20; v /= 10)
		digits[k++] = (char)('0' + v % 10);
	size_t o = 6;
	while (k)
		path[o++] = digits[--k];
	memcpy(path + o, "/auxv", 6);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	uint64_t pair[2];
	int found = -1;
	/* a process's own vector is at most a few hundred bytes; read it a pair at a time */
	while (read(fd, pair, sizeof pair) == (ssize_t)sizeof pair) {
		if (pair[0] == AT_NULL)
			break;
		if (pair[0] == AT_SECURE) {
			found = pair[1] != 0;
			break;
		}
	}
	close(fd);
	return found;
}
