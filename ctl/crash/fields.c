/* The fields of crash evidence: maps lines, environment blobs, kernel lines, cgroup units. */
#include "crash/fields.h"
#include "common/version_name.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The next line of [*p, end) (without its newline); 0 when none is left. */
static int next_piece(const char **p, const char *end, const char **s, size_t *n, int nul_too)
{
	if (*p >= end)
		return 0;
	const char *q = *p;
	while (q < end && *q != '\n' && !(nul_too && *q == '\0'))
		q++;
	*s = *p;
	*n = (size_t)(q - *p);
	*p = q < end ? q + 1 : q;
	return 1;
}

static int copy_out(const char *s, size_t n, char *out, size_t cap)
{
	if (!cap || n >= cap || memchr(s, '\0', n))
		return 0;
	memcpy(out, s, n);
	out[n] = '\0';
	return 1;
}

static int has_suffix(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);
	return n >= k && !memcmp(s + n - k, suf, k);
}

static int starts(const char *s, size_t n, const char *pre)
{
	size_t k = strlen(pre);
	return n > k && !memcmp(s, pre, k);
}

/* A driver library's file name, by the names the loaders' drivers have: Vulkan's, OpenCL's,
 * and Mesa's GL (the DRI drivers, libgallium, the EGL and GLX vendor libraries). */
static int driver_name(const char *name, size_t n)
{
	return (n > 12 && starts(name, n, "libvulkan_") && memmem(name, n, ".so", 3)) ||
	       (memmem(name, n, "OpenCL", 6) && memmem(name, n, ".so", 3) && !memmem(name, n, "libOpenCL.so", 12)) ||
	       has_suffix(name, n, "_dri.so") || starts(name, n, "libgallium-") ||
	       starts(name, n, "libEGL_mesa.so") || starts(name, n, "libGLX_mesa.so");
}

/* The path of a maps line: the sixth field, which starts with '/'. */
static int maps_path(const char *line, size_t n, const char **path, size_t *plen)
{
	int field = 0;
	size_t i = 0;
	while (i < n && field < 5) {
		while (i < n && line[i] != ' ')
			i++;
		while (i < n && line[i] == ' ')
			i++;
		field++;
	}
	if (field < 5 || i >= n || line[i] != '/')
		return 0;
	*path = line + i;
	*plen = n - i;
	if (has_suffix(*path, *plen, " (deleted)"))
		*plen -= 10;
	return 1;
}

int crash_maps_version(const char *maps, size_t len, const char *prefix, char *out, size_t n,
		       int *other_driver)
{
	const char *p = maps, *end = maps + len, *line;
	size_t ll, pl = strlen(prefix);
	int found = 0;
	if (other_driver)
		*other_driver = 0;
	while (next_piece(&p, end, &line, &ll, 0)) {
		const char *path;
		size_t plen;
		if (!maps_path(line, ll, &path, &plen))
			continue;
		if (plen > pl && !memcmp(path, prefix, pl) && !memmem(path, plen, "/..", 3) &&
		    !memmem(path, plen, "/./", 3)) {
			const char *v = path + pl, *slash = memchr(v, '/', plen - pl);
			char name[80];
			if (!found && slash && copy_out(v, (size_t)(slash - v), name, sizeof name) &&
			    version_name_ok(name) && copy_out(name, strlen(name), out, n))
				found = 1;
			continue;
		}
		const char *base = memrchr(path, '/', plen);
		base = base ? base + 1 : path;
		if (other_driver && driver_name(base, (size_t)(path + plen - base)))
			*other_driver = 1;
	}
	return found;
}

int crash_environ_get(const char *blob, size_t len, const char *name, char *out, size_t n)
{
	const char *p = blob, *end = blob + len, *s;
	size_t sl, nl = strlen(name);
	while (next_piece(&p, end, &s, &sl, 1))
		if (sl > nl && s[nl] == '=' && !memcmp(s, name, nl))
			return copy_out(s + nl + 1, sl - nl - 1, out, n);
	return 0;
}

/* "comm[pid]: " at the start of a line: the name (at most 15 bytes, as the kernel keeps it,
 * though any bytes but '[') and the pid; returns the length read, 0 when it is not there. */
static size_t task_prefix(const char *m, size_t len, struct crash_kline *k)
{
	const char *br = memchr(m, '[', len < 64 ? len : 64);
	if (!br || br == m)
		return 0;
	size_t i = (size_t)(br - m) + 1;
	long pid = 0;
	size_t digits = 0;
	while (i < len && m[i] >= '0' && m[i] <= '9' && digits < 10) {
		pid = pid * 10 + (m[i++] - '0');
		digits++;
	}
	if (!digits || i + 2 > len || m[i] != ']' || m[i + 1] != ':')
		return 0;
	if (!copy_out(m, (size_t)(br - m), k->comm, sizeof k->comm))
		return 0;
	k->pid = pid;
	return i + 2;
}

/* The object of " in NAME[" after off: the kernel's print_vma_addr. */
static void fault_object(const char *m, size_t len, size_t off, struct crash_kline *k)
{
	const char *s = m + off, *end = m + len, *hit = NULL, *q;
	while ((q = memmem(s, (size_t)(end - s), " in ", 4))) {
		hit = q + 4;
		s = hit;
	}
	if (!hit)
		return;
	const char *br = memchr(hit, '[', (size_t)(end - hit));
	if (br && br > hit)
		copy_out(hit, (size_t)(br - hit), k->object, sizeof k->object);
}

static int gpu_line(const char *m, size_t len, struct crash_kline *k)
{
	const char *t = memmem(m, len, "offending task: ", 16);
	if (t) {
		t += 16;
		const char *end = m + len, *paren = memmem(t, (size_t)(end - t), " (", 2);
		size_t name_len = paren ? (size_t)(paren - t) : (size_t)(end - t);
		k->kind = KLINE_GPU_HANG;
		copy_out(t, name_len, k->comm, sizeof k->comm);
		if (paren) {
			const char *c = paren + 2;
			size_t cl = (size_t)(end - c);
			if (cl && c[cl - 1] == ')')
				cl--;
			copy_out(c, cl, k->cmdline, sizeof k->cmdline);
		}
		return 1;
	}
	if (memmem(m, len, "*** gpu fault:", 14)) {
		k->kind = KLINE_GPU_FAULT;
		return 1;
	}
	return 0;
}

int crash_kernel_line(const char *msg, size_t len, struct crash_kline *k)
{
	memset(k, 0, sizeof *k);
	if (gpu_line(msg, len, k))
		return 1;
	size_t off = task_prefix(msg, len, k);
	if (!off)
		return memset(k, 0, sizeof *k), 0;
	const char *rest = msg + off;
	size_t rl = len - off;
	if (rl > 10 && !memcmp(rest, " segfault ", 10))
		k->kind = KLINE_SEGFAULT;
	else if (rl > 21 && !memcmp(rest, " unhandled exception", 20))
		k->kind = KLINE_EXCEPTION;
	else if ((rl > 25 && !memcmp(rest, " general protection fault", 25)) ||
		 (rl > 6 && !memcmp(rest, " trap ", 6)))
		k->kind = KLINE_SEGFAULT;
	else
		return memset(k, 0, sizeof *k), 0;
	fault_object(msg, len, off, k);
	return 1;
}

/* An application ID's characters (docs/design.md §16). */
static int id_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '+' || c == '-';
}

int crash_cgroup_app(const char *cgroup, size_t len, char *out, size_t n)
{
	while (len && (cgroup[len - 1] == '\n' || cgroup[len - 1] == '/'))
		len--;
	const char *slash = memrchr(cgroup, '/', len), *u = slash ? slash + 1 : cgroup;
	size_t ul = (size_t)(cgroup + len - u);
	char unit[300];
	if (ul < 5 || ul >= sizeof unit || memcmp(u, "app-", 4))
		return 0;
	memcpy(unit, u + 4, ul - 4);
	size_t l = ul - 4;
	unit[l] = '\0';
	if (has_suffix(unit, l, ".service")) {
		l -= 8;
		char *at = memchr(unit, '@', l);
		if (at)
			l = (size_t)(at - unit);
	} else if (has_suffix(unit, l, ".scope")) {
		l -= 6;
		char *dash = memrchr(unit, '-', l);
		if (!dash)
			return 0;
		l = (size_t)(dash - unit);
	} else {
		return 0;
	}
	/* a launcher's name before the ID has no dot; an ID has at least one */
	char *dash = memchr(unit, '-', l);
	size_t start = 0;
	if (dash && !memchr(unit, '.', (size_t)(dash - unit)) && memchr(dash, '.', l - (size_t)(dash - unit)))
		start = (size_t)(dash - unit) + 1;
	char id[300];
	size_t o = 0;
	for (size_t i = start; i < l; i++) {
		char c = unit[i];
		if (c == '\\' && i + 3 < l && unit[i + 1] == 'x' && unit[i + 2] == '2' && unit[i + 3] == 'd')
			c = '-', i += 3;
		if (!id_char(c) || o + 1 >= sizeof id)
			return 0;
		id[o++] = c;
	}
	if (!o || id[0] == '.' || !memchr(id, '.', o))
		return 0;
	id[o] = '\0';
	int w = snprintf(out, n, "%s.desktop", id);
	return w > 0 && (size_t)w < n && (size_t)w <= 255;
}

const char *crash_signal_name(int sig, char *out, size_t n)
{
	const char *abbrev = sig > 0 && sig < 65 ? sigabbrev_np(sig) : NULL;
	if (abbrev)
		snprintf(out, n, "SIG%s", abbrev);
	else
		snprintf(out, n, "signal %d", sig);
	return out;
}

static int is(const char *v, size_t n, const char *want)
{
	return v && n == strlen(want) && !memcmp(v, want, n);
}

/* A decimal user number of at most 10 digits, no sign, no leading zero but "0": -1 otherwise. */
static long uid_number(const char *v, size_t n)
{
	if (!v || !n || n > 10 || (n > 1 && v[0] == '0'))
		return -1;
	long x = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		x = x * 10 + (v[i] - '0');
	}
	return x <= 4294967294L ? x : -1;
}

int crash_coredump_trusted(const struct crash_trust *t, long *uid)
{
	static const char unit_pre[] = "systemd-coredump@", unit_suf[] = ".service";
	size_t pl = sizeof unit_pre - 1, sl = sizeof unit_suf - 1;
	if (!is(t->transport, t->transport_len, "journal"))
		return 0;
	if (!t->unit || t->unit_len <= pl + sl || memcmp(t->unit, unit_pre, pl) ||
	    memcmp(t->unit + t->unit_len - sl, unit_suf, sl) || memchr(t->unit, '\0', t->unit_len) ||
	    memchr(t->unit + pl, '/', t->unit_len - pl))
		return 0;
	if (!t->comm && !t->exe)
		return 0;
	if (t->comm && !is(t->comm, t->comm_len, "systemd-coredum"))
		return 0;
	if (t->exe) {
		const char *base = memrchr(t->exe, '/', t->exe_len);
		if (!base || !is(base + 1, t->exe_len - (size_t)(base + 1 - t->exe), "systemd-coredump"))
			return 0;
	}
	long cu = uid_number(t->coredump_uid, t->coredump_uid_len), su = uid_number(t->uid, t->uid_len);
	if (cu < 0 || su < 0)
		return 0;
	if (su != cu && su != 0 && !(cu < CRASH_FIRST_USER_UID && su < CRASH_FIRST_USER_UID))
		return 0;
	*uid = cu;
	return 1;
}
