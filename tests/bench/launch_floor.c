/* The smallest exec wrapper one can write, as the benchmark's reference: a static env(1) that
 * sets NAME=value arguments and execs the rest, nothing else. Linked -static like the launcher. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int i = 1;
	while (i < argc && strchr(argv[i], '='))
		putenv(argv[i++]);
	if (i >= argc)
		return 2;
	execvp(argv[i], argv + i);
	return 127;
}
