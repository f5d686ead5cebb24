/* Reading /proc/PID/maps for driver libraries, on hostile bytes (paths in maps are chosen by
 * whoever names the files a process maps). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "launcher/procmaps.h"

static struct mapped_drivers found;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	procmaps_drivers((const char *)data, size, &found);
	if (found.count > PROCMAPS_MAX_DRIVERS)
		abort();
	for (size_t i = 0; i < found.count; i++)
		if (found.d[i].api == GPU_API_NONE || found.d[i].path[0] != '/' ||
		    driver_api_of(found.d[i].path) != found.d[i].api)
			abort();
	return 0;
}
