#include "base/progress.h"

#include <stddef.h>
#include <stdint.h>

void progress_bytes(const struct tb_progress *p, const char *op, const char *file,
		    uint64_t done, uint64_t total)
{
	if (p && p->bytes)
		p->bytes(p->ctx, op, file, done, total);
}

void progress_test(const struct tb_progress *p, const char *name, const char *status)
{
	if (p && p->test)
		p->test(p->ctx, name, status);
}

void progress_done(const struct tb_progress *p, const char *op, const char *file)
{
	if (p && p->done)
		p->done(p->ctx, op, file);
}

void progress_step(const struct tb_progress *p, const char *step)
{
	if (p && p->step)
		p->step(p->ctx, step, -1);
}

void progress_count(const struct tb_progress *p, const char *op, const char *name,
		    uint64_t done, uint64_t total)
{
	if (p && p->count)
		p->count(p->ctx, op, name, done, total);
}

void progress_wait(const struct tb_progress *p, const char *sentence)
{
	if (p && p->wait)
		p->wait(p->ctx, sentence);
}
