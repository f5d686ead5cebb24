/* The active session's user on seat0, from sd-login. */
#include "gputest/seat.h"

#include <stddef.h>
#include <systemd/sd-login.h>

#include "base/lazylib.h"

long seat_active_uid(void)
{
	uid_t uid;
	if (LAZY_CALL(lazy_libsystemd, sd_seat_get_active)("seat0", NULL, &uid) < 0)
		return -1;
	return (long)uid;
}
