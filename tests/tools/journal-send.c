/* Sends one journal entry through the journal's own client API (sd_journal_sendv), as any
 * program may: journald adds the fields it trusts (_UID, _COMM, _EXE, _SYSTEMD_UNIT, …) from
 * the sender's credentials and cgroup. Used by tests/integration/crashes_whose.sh.
 * usage: journal-send FIELD=VALUE|FIELD=@FILE…   (FILE: its bytes, newlines and all)
 * After sending it prints "sent" and waits until its standard input ends, so that it is still
 * there when journald looks it up (a sender gone by then gets none of those fields). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <systemd/sd-journal.h>
#include <unistd.h>

static char *field_of(const char *arg, size_t *len)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq[1] != '@') {
		*len = strlen(arg);
		return strdup(arg);
	}
	FILE *f = fopen(eq + 2, "rb");
	if (!f)
		return NULL;
	size_t k = (size_t)(eq - arg) + 1, cap = k + 65536;
	char *b = malloc(cap);
	memcpy(b, arg, k);
	size_t got;
	while ((got = fread(b + k, 1, cap - k, f)) > 0)
		if ((k += got) == cap)
			b = realloc(b, cap *= 2);
	fclose(f);
	*len = k;
	return b;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: journal-send FIELD=VALUE|FIELD=@FILE...\n");
		return 2;
	}
	struct iovec *iov = calloc((size_t)argc, sizeof *iov);
	for (int i = 1; i < argc; i++) {
		iov[i - 1].iov_base = field_of(argv[i], &iov[i - 1].iov_len);
		if (!iov[i - 1].iov_base) {
			perror(argv[i]);
			return 1;
		}
	}
	int r = sd_journal_sendv(iov, argc - 1);
	if (r < 0) {
		fprintf(stderr, "sd_journal_sendv: %s\n", strerror(-r));
		return 1;
	}
	printf("sent\n");
	fflush(stdout);
	char sink[256];
	while (read(0, sink, sizeof sink) > 0)
		;
	return 0;
}
