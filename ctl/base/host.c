#include "base/host.h"

#include <stdio.h>
#include <sys/utsname.h>

const char *host_arch(void)
{
	static char arch[65];
	if (!arch[0]) {
		struct utsname u;
		if (uname(&u) == 0)
			snprintf(arch, sizeof arch, "%s", u.machine);
	}
	return arch;
}
