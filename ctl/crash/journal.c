/* Reading crash evidence from the journal with sd-journal. */
#include "crash/journal.h"
#include "base/alloc.h"
#include "crash/fields.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-journal.h>

#include "base/lazy_systemd.h"

/* The journal files of $TB323FU_MESA_JOURNAL, NULL-terminated (free the list and its first
 * element), or NULL when it is not set. */
static char **journal_files(void)
{
	const char *v = getenv(JOURNAL_ENV_VAR);
	if (!v || !*v)
		return NULL;
	char *copy = xstrdup(v);
	size_t n = 2;
	for (const char *p = copy; *p; p++)
		n += *p == ':';
	char **list = xcalloc(n, sizeof *list), *save = NULL;
	size_t i = 0;
	for (char *f = strtok_r(copy, ":", &save); f; f = strtok_r(NULL, ":", &save))
		list[i++] = f;
	if (!i)
		list[0] = copy; /* "::" names no file: sd_journal_open_files gets an empty name */
	return list;
}

static int journal_open(sd_journal **j, struct tb_error *e)
{
	char **files = journal_files();
	int r = files ? sd_journal_open_files(j, (const char **)files, 0)
		      : sd_journal_open(j, SD_JOURNAL_LOCAL_ONLY); /* the system's and the users' */
	if (files) {
		free(files[0]);
		free(files);
	}
	if (r < 0) {
		errno = -r;
		return tb_fail_errno(e, -r == ENOENT ? TB_R_NOT_FOUND_LOCAL : TB_R_IO_ERROR,
				     "cannot open the journal%s%s", files ? " files of $" : "",
				     files ? JOURNAL_ENV_VAR : "");
	}
	sd_journal_set_data_threshold(*j, JOURNAL_FIELD_MAX);
	if (sd_journal_add_match(*j, "MESSAGE_ID=" COREDUMP_MESSAGE_ID, 0) < 0 ||
	    sd_journal_add_disjunction(*j) < 0 || sd_journal_add_match(*j, "_TRANSPORT=kernel", 0) < 0) {
		sd_journal_close(*j);
		return tb_fail(e, TB_R_IO_ERROR, "cannot read the journal (sd-journal refused a match)");
	}
	return 0;
}

/* A field's value (after "NAME="), or NULL. */
static const char *field(sd_journal *j, const char *name, size_t *len)
{
	const void *d;
	size_t n, k = strlen(name);
	*len = 0;
	if (sd_journal_get_data(j, name, &d, &n) < 0 || n <= k || ((const char *)d)[k] != '=')
		return NULL;
	*len = n - k - 1;
	return (const char *)d + k + 1;
}

static long number(sd_journal *j, const char *name)
{
	size_t n;
	const char *v = field(j, name, &n);
	long x = 0;
	for (size_t i = 0; v && i < n && i < 10 && v[i] >= '0' && v[i] <= '9'; i++)
		x = x * 10 + (v[i] - '0');
	return x;
}

/* Fills je from the entry j stands at. sd-journal keeps one field's data valid until the next
 * call, so each is copied. */
static void entry_of(sd_journal *j, struct journal_entry *je, char **copies)
{
	memset(je, 0, sizeof *je);
	je->uid = -1;
	size_t n;
	const char *v = field(j, "_TRANSPORT", &n);
	je->kernel = v && n == 6 && !memcmp(v, "kernel", 6);
	v = field(j, "MESSAGE_ID", &n);
	if (!je->kernel && v && n == 32 && !memcmp(v, COREDUMP_MESSAGE_ID, 32)) {
		/* the journal's own fields, each copied: sd-journal keeps one field's data valid
		 * only until the next call */
		static const char *names[] = {"_TRANSPORT", "_SYSTEMD_UNIT", "_COMM", "_EXE", "_UID", "COREDUMP_UID"};
		char *val[6] = {0};
		size_t len[6] = {0};
		for (size_t i = 0; i < 6; i++) {
			const char *d = field(j, names[i], &len[i]);
			if (d && len[i] <= 4096) {
				val[i] = xmalloc(len[i] + 1);
				memcpy(val[i], d, len[i]);
			}
		}
		struct crash_trust t = {
			.transport = val[0], .transport_len = len[0], .unit = val[1], .unit_len = len[1],
			.comm = val[2], .comm_len = len[2], .exe = val[3], .exe_len = len[3],
			.uid = val[4], .uid_len = len[4], .coredump_uid = val[5], .coredump_uid_len = len[5],
		};
		je->coredump = crash_coredump_trusted(&t, &je->uid);
		je->forged = !je->coredump;
		for (size_t i = 0; i < 6; i++)
			free(val[i]);
	}
	sd_journal_get_realtime_usec(j, &je->usec);
	if (!je->coredump && !je->kernel)
		return;
	struct {
		const char *name;
		const char **dst;
		size_t *len;
	} f[] = {
		{"MESSAGE", &je->message, &je->message_len},   {"COREDUMP_EXE", &je->exe, &je->exe_len},
		{"COREDUMP_COMM", &je->comm, &je->comm_len},  {"COREDUMP_CGROUP", &je->cgroup, &je->cgroup_len},
		{"COREDUMP_ENVIRON", &je->environ, &je->environ_len},
		{"COREDUMP_PROC_MAPS", &je->maps, &je->maps_len},
	};
	for (size_t i = 0; i < sizeof f / sizeof *f; i++) {
		if (!je->coredump && i > 0)
			break;
		v = field(j, f[i].name, &n);
		if (!v)
			continue;
		copies[i] = xmalloc(n + 1);
		memcpy(copies[i], v, n);
		copies[i][n] = '\0';
		*f[i].dst = copies[i];
		*f[i].len = n;
	}
	if (je->coredump) {
		je->signal = (int)number(j, "COREDUMP_SIGNAL");
		je->pid = number(j, "COREDUMP_PID");
	}
}

static int seek(sd_journal *j, const char *cursor, uint64_t since)
{
	if (cursor && *cursor) {
		if (sd_journal_seek_cursor(j, cursor) < 0)
			return sd_journal_seek_head(j);
		/* the entry at the cursor was read before */
		if (sd_journal_next(j) > 0 && sd_journal_test_cursor(j, cursor) <= 0)
			sd_journal_previous(j);
		return 0;
	}
	return since ? sd_journal_seek_realtime_usec(j, since) : sd_journal_seek_head(j);
}

int journal_read(const char *cursor, uint64_t since_usec, journal_entry_fn fn, void *ud,
		 char *last, struct tb_error *e)
{
	sd_journal *j;
	if (last)
		*last = '\0';
	/* the journal is optional to the commands that read it: without libsystemd they go on */
	if (lazylib_load(&lazy_libsystemd, e))
		return -1;
	if (journal_open(&j, e))
		return -1;
	int rc = 0;
	seek(j, cursor, since_usec);
	for (size_t count = 0; !rc && count < JOURNAL_MAX_ENTRIES && sd_journal_next(j) > 0; count++) {
		char *c = NULL;
		if (sd_journal_get_cursor(j, &c) < 0)
			continue;
		if (last && strlen(c) < JOURNAL_CURSOR_MAX)
			strcpy(last, c);
		char *copies[6] = {0};
		struct journal_entry je;
		entry_of(j, &je, copies);
		je.cursor = c;
		if (!since_usec || je.usec >= since_usec)
			rc = fn(&je, ud);
		for (size_t i = 0; i < 6; i++)
			free(copies[i]);
		free(c);
	}
	sd_journal_close(j);
	return rc;
}

int journal_check_readable(struct tb_error *e)
{
	sd_journal *j;
	if (journal_open(&j, e))
		return 1;
	uint64_t bytes = 0;
	int r = sd_journal_get_usage(j, &bytes);
	sd_journal_close(j);
	if (r < 0 || bytes)
		return 0;
	if (geteuid())
		tb_fail(e, TB_R_NOT_FOUND_LOCAL,
			"no journal file could be read (journalctl: \"No journal files were found\"), so no crash can be seen: run it as root, or as a member of the systemd-journal group");
	else
		tb_fail(e, TB_R_NOT_FOUND_LOCAL,
			"no journal file could be read (journalctl: \"No journal files were found\"), so no crash can be seen: this system keeps no journal; start systemd-journald with Storage=persistent or auto (and /var/log/journal) in journald.conf");
	return 1;
}

/* The latest --since accepted: 9999-12-31 23:59:59 UTC, in seconds. */
#define SINCE_MAX_SECONDS 253402300799ULL

/* A count of at most 12 decimal digits and nothing before it (no sign, no space): *n and the
 * first byte after it; NULL when there is none or it is longer. */
static const char *digits(const char *w, unsigned long long *n)
{
	size_t k = 0;
	*n = 0;
	while (w[k] >= '0' && w[k] <= '9' && k < 13)
		*n = *n * 10 + (unsigned long long)(w[k++] - '0');
	return k && k <= 12 ? w + k : NULL;
}

uint64_t journal_since_usec(const char *w)
{
	unsigned long long n;
	const char *end;
	if (w[0] == '@') {
		end = digits(w + 1, &n);
		return end && !*end && n && n <= SINCE_MAX_SECONDS ? (uint64_t)n * 1000000u : 0;
	}
	if (w[0] == '-') {
		end = digits(w + 1, &n);
		unsigned long long unit = !end ? 0 : *end == 's' ? 1 : *end == 'm' ? 60 : *end == 'h' ? 3600 : *end == 'd' ? 86400 : 0;
		time_t now = time(NULL);
		if (!unit || end[1] || n > 36500ULL * 86400 / unit || (unsigned long long)now <= n * unit)
			return 0;
		return ((uint64_t)now - n * unit) * 1000000u;
	}
	static const char *forms[] = {"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
				      "%Y-%m-%dT%H:%M", "%Y-%m-%d"};
	/* strptime would take a sign, spaces, or a year of any length */
	if (!(w[0] >= '0' && w[0] <= '9' && w[1] >= '0' && w[1] <= '9' && w[2] >= '0' && w[2] <= '9' &&
	      w[3] >= '0' && w[3] <= '9' && w[4] == '-'))
		return 0;
	for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
		struct tm tm = {0};
		const char *rest = strptime(w, forms[i], &tm);
		if (rest && (!*rest || !strcmp(rest, "Z"))) {
			time_t t = timegm(&tm);
			return t > 0 && (unsigned long long)t <= SINCE_MAX_SECONDS ? (uint64_t)t * 1000000u : 0;
		}
	}
	return 0;
}
