/* Times commands started the way an application launcher starts them (posix_spawnp, then
 * waitpid), interleaved round by round so drift in the machine's load hits all of them alike,
 * and prints the median wall time of each. What the commands print goes to /dev/null, so that
 * only the medians are on stdout.
 *
 * usage: launch_timer RUNS NAME CMD... [-- NAME CMD...]...  (the first command is the base) */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

struct subject {
	const char *name;
	char **argv;
	double *ms;
};

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double time_once(char **argv)
{
	static posix_spawn_file_actions_t quiet;
	static int ready;
	if (!ready) {
		posix_spawn_file_actions_init(&quiet);
		posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
		ready = 1;
	}
	pid_t pid;
	double start = now_ms();
	if (posix_spawnp(&pid, argv[0], &quiet, NULL, argv, environ) != 0) {
		fprintf(stderr, "launch_timer: cannot start %s\n", argv[0]);
		exit(1);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "launch_timer: %s did not exit with 0\n", argv[0]);
		exit(1);
	}
	return now_ms() - start;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: launch_timer RUNS NAME CMD... [-- NAME CMD...]...\n");
		return 2;
	}
	int runs = atoi(argv[1]);
	struct subject subjects[8];
	int n = 0;
	for (int i = 2; i < argc && n < 8;) {
		subjects[n].name = argv[i++];
		subjects[n].argv = &argv[i];
		while (i < argc && strcmp(argv[i], "--") != 0)
			i++;
		if (i < argc)
			argv[i++] = NULL;
		subjects[n].ms = calloc((size_t)runs, sizeof(double));
		n++;
	}
	/* Warm the page cache and the dynamic linker's caches first. */
	for (int s = 0; s < n; s++)
		for (int w = 0; w < 20; w++)
			time_once(subjects[s].argv);
	for (int r = 0; r < runs; r++)
		for (int k = 0; k < n; k++) {
			int s = (k + r) % n; /* rotate the order every round */
			subjects[s].ms[r] = time_once(subjects[s].argv);
		}
	for (int s = 0; s < n; s++) {
		qsort(subjects[s].ms, (size_t)runs, sizeof(double), compare_doubles);
		printf("%s %.4f\n", subjects[s].name, subjects[s].ms[runs / 2]);
	}
	return 0;
}
