/* Records a real crash as systemd-coredump would describe it: runs a command traced, and when
 * a fatal signal is about to be delivered to the program it became, writes the fields
 * systemd-coredump takes from the same /proc files at the same moment (COREDUMP_EXE,
 * COREDUMP_COMM, COREDUMP_PID, COREDUMP_SIGNAL, COREDUMP_CGROUP, COREDUMP_ENVIRON,
 * COREDUMP_PROC_MAPS, …) as one entry of the journal's export format; then lets the signal
 * take its course, so the kernel logs its line. Where systemd-coredump itself cannot run
 * (no systemd as PID 1) this is how tests/fixtures/crashes/ got its fields.
 * usage: crash-record OUT -- COMMAND [ARGS…]   (exits with the command's status)
 * A tracer keeps the kernel from logging its line for the fault (an unhandled signal of a
 * traced process is not "unhandled"), so the same record is also made the way systemd-coredump
 * itself is called, as the kernel's core_pattern pipe while the process is still there:
 *        crash-record --pipe OUT PID SIGNAL   (kernel.core_pattern = |crash-record --pipe OUT %P %s) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return *n = 0, NULL;
	size_t cap = 4096, len = 0;
	char *b = malloc(cap);
	size_t got;
	while ((got = fread(b + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	*n = len;
	return b;
}

/* A field as the export format carries it: text, or the binary form when it has a newline. */
static void field(FILE *out, const char *name, const char *v, size_t n)
{
	if (!memchr(v, '\n', n)) {
		fprintf(out, "%s=%.*s\n", name, (int)n, v);
		return;
	}
	uint64_t le = n; /* the machines here are little-endian, as the format's size is */
	fprintf(out, "%s\n", name);
	fwrite(&le, 8, 1, out);
	fwrite(v, 1, n, out);
	fputc('\n', out);
}
static void text(FILE *out, const char *name, const char *v) { field(out, name, v, strlen(v)); }

static void proc_field(FILE *out, pid_t pid, const char *file, const char *name, int nul_to_nl)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
	size_t n;
	char *b = slurp(path, &n);
	if (!b)
		return;
	while (n && (b[n - 1] == '\n' || (nul_to_nl && b[n - 1] == '\0')))
		n--;
	for (size_t i = 0; nul_to_nl && i < n; i++)
		if (b[i] == '\0')
			b[i] = nul_to_nl == 2 ? ' ' : '\n';
	field(out, name, b, n);
	free(b);
}

static void record(FILE *out, pid_t pid, int sig)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	struct timespec mono;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	char buf[4200], exe[4096] = "";
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
	ssize_t k = readlink(path, exe, sizeof exe - 1);
	exe[k > 0 ? k : 0] = '\0';
	size_t n, boot_n;
	char *boot = slurp("/proc/sys/kernel/random/boot_id", &boot_n), comm[64] = "";
	snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
	char *c = slurp(path, &n);
	if (c)
		snprintf(comm, sizeof comm, "%.*s", (int)strcspn(c, "\n"), c);
	fprintf(out, "__REALTIME_TIMESTAMP=%llu\n", (unsigned long long)tv.tv_sec * 1000000ULL + (unsigned long long)tv.tv_usec);
	fprintf(out, "__MONOTONIC_TIMESTAMP=%llu\n", (unsigned long long)mono.tv_sec * 1000000ULL + (unsigned long long)mono.tv_nsec / 1000);
	if (boot) {
		/* the journal's boot id is the kernel's without dashes */
		char id[40];
		size_t j = 0;
		for (size_t i = 0; i < boot_n && j < 32; i++)
			if (boot[i] != '-' && boot[i] != '\n')
				id[j++] = boot[i];
		id[j] = '\0';
		text(out, "_BOOT_ID", id);
	}
	text(out, "_TRANSPORT", "journal");
	text(out, "PRIORITY", "2");
	text(out, "SYSLOG_IDENTIFIER", "systemd-coredump");
	text(out, "MESSAGE_ID", "fc2e22bc6ee647b6b90729ab34a250b1");
	snprintf(buf, sizeof buf, "Process %d (%s) of user %d dumped core.", (int)pid, comm, (int)getuid());
	text(out, "MESSAGE", buf);
	snprintf(buf, sizeof buf, "%d", (int)pid);
	text(out, "COREDUMP_PID", buf);
	snprintf(buf, sizeof buf, "%d", (int)getuid());
	text(out, "COREDUMP_UID", buf);
	snprintf(buf, sizeof buf, "%d", sig);
	text(out, "COREDUMP_SIGNAL", buf);
	snprintf(buf, sizeof buf, "SIG%s", sigabbrev_np(sig));
	text(out, "COREDUMP_SIGNAL_NAME", buf);
	snprintf(buf, sizeof buf, "%lld", (long long)tv.tv_sec * 1000000LL + tv.tv_usec);
	text(out, "COREDUMP_TIMESTAMP", buf);
	text(out, "COREDUMP_COMM", comm);
	text(out, "COREDUMP_EXE", exe);
	proc_field(out, pid, "cmdline", "COREDUMP_CMDLINE", 2);
	proc_field(out, pid, "cgroup", "COREDUMP_PROC_CGROUP", 0);
	snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
	char *cg = slurp(path, &n);
	if (cg && !strncmp(cg, "0::", 3))
		field(out, "COREDUMP_CGROUP", cg + 3, strcspn(cg + 3, "\n"));
	proc_field(out, pid, "environ", "COREDUMP_ENVIRON", 1);
	proc_field(out, pid, "maps", "COREDUMP_PROC_MAPS", 0);
	fputc('\n', out);
	free(boot);
	free(c);
	free(cg);
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--pipe")) {
		FILE *out = fopen(argv[2], "w");
		if (!out)
			return 1;
		record(out, (pid_t)atoi(argv[3]), atoi(argv[4]));
		fclose(out);
		char sink[65536];
		while (read(0, sink, sizeof sink) > 0)
			; /* the core itself is not kept */
		return 0;
	}
	if (argc < 4 || strcmp(argv[2], "--")) {
		fprintf(stderr, "usage: crash-record OUT -- COMMAND [ARGS...]\n");
		return 2;
	}
	pid_t pid = fork();
	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	int status, recorded = 0;
	while (waitpid(pid, &status, 0) == pid) {
		if (WIFEXITED(status))
			return WEXITSTATUS(status);
		if (WIFSIGNALED(status))
			return 128 + WTERMSIG(status);
		int sig = WSTOPSIG(status), deliver = sig;
		if (sig == SIGTRAP)
			deliver = 0; /* an exec under the trace */
		else if (!recorded && (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
				       sig == SIGFPE || sig == SIGABRT)) {
			FILE *out = fopen(argv[1], "w");
			if (!out)
				return perror(argv[1]), 1;
			record(out, pid, sig);
			fclose(out);
			recorded = 1;
		}
		ptrace(PTRACE_CONT, pid, NULL, (void *)(intptr_t)deliver);
	}
	return 1;
}
