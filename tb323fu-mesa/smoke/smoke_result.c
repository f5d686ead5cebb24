#include "smoke/smoke_result.h"

#include <stdarg.h>
#include <stdio.h>

void smoke_set(struct smoke_result *r, enum smoke_status status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	r->status = status;
	vsnprintf(r->detail, sizeof r->detail, fmt, ap);
	va_end(ap);
}
