/* The readers of crash evidence (docs/design.md §18) on hostile bytes: a journal's fields are
 * written by whoever crashes (its environment, the paths it maps, its name in the kernel's
 * line). The first byte chooses the reader; the rest is the field, never NUL-terminated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crash/fields.h"
#include "common/version_name.h"

/* A C string of out, or abort: every reader writes a NUL-terminated value within its room. */
static void terminated(const char *out, size_t n)
{
	if (!memchr(out, '\0', n))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	const char *text = (const char *)data + 1;
	size_t len = size - 1;
	/* a copy of exactly len bytes, so reading past it is caught */
	char *field = malloc(len ? len : 1);
	memcpy(field, text, len);
	char out[80];
	memset(out, 'x', sizeof out);
	switch (data[0] % 5) {
	case 0: {
		int other = -1;
		if (crash_maps_version(field, len, "/var/lib/tb323fu/mesa/versions/", out, sizeof out, &other)) {
			terminated(out, sizeof out);
			if (!version_name_ok(out))
				abort();
		}
		if (other != 0 && other != 1)
			abort();
		break;
	}
	case 1:
		if (crash_environ_get(field, len, "VK_DRIVER_FILES", out, sizeof out))
			terminated(out, sizeof out);
		break;
	case 2: {
		struct crash_kline k;
		if (crash_kernel_line(field, len, &k)) {
			terminated(k.comm, sizeof k.comm);
			terminated(k.object, sizeof k.object);
			terminated(k.cmdline, sizeof k.cmdline);
			if (k.kind == KLINE_NONE)
				abort();
		}
		break;
	}
	case 4: {
		/* the journal's fields of an entry, separated by newlines: _TRANSPORT, _SYSTEMD_UNIT,
		 * _COMM, _EXE, _UID, COREDUMP_UID (an empty one absent), each an exact copy */
		const char *part[6] = {0};
		size_t plen[6] = {0}, k = 0, start = 0;
		char *copy[6] = {0};
		for (size_t i = 0; i <= len && k < 6; i++)
			if (i == len || field[i] == '\n') {
				plen[k] = i - start;
				if (plen[k]) {
					copy[k] = malloc(plen[k]);
					memcpy(copy[k], field + start, plen[k]);
					part[k] = copy[k];
				}
				k++;
				start = i + 1;
			}
		struct crash_trust t = {
			.transport = part[0], .transport_len = plen[0], .unit = part[1], .unit_len = plen[1],
			.comm = part[2], .comm_len = plen[2], .exe = part[3], .exe_len = plen[3],
			.uid = part[4], .uid_len = plen[4], .coredump_uid = part[5], .coredump_uid_len = plen[5],
		};
		long uid = -7;
		if (crash_coredump_trusted(&t, &uid) && (uid < 0 || plen[0] != 7 || memcmp(part[0], "journal", 7)))
			abort();
		for (size_t i = 0; i < 6; i++)
			free(copy[i]);
		break;
	}
	default: {
		char id[300];
		if (crash_cgroup_app(field, len, id, sizeof id)) {
			terminated(id, sizeof id);
			size_t n = strlen(id);
			if (n < 9 || n > 255 || strcmp(id + n - 8, ".desktop") || strchr(id, '/'))
				abort();
		}
		break;
	}
	}
	free(field);
	return 0;
}
