/* The store's marks for people and for JSON (marks_say.h). */
#include "render/marks_say.h"

json_object *marks_json(const struct marks *m)
{
	return marks_array(m, 0);
}

void marks_say(struct strbuf *sb, const char *prefix, const struct marks *m)
{
	for (size_t i = 0; i < m->n; i++) {
		const struct mark *k = &m->v[i];
		if (k->refused)
			sb_appendf(sb, "%sMesa %s is marked %s here (its release was refused: %s): update does not fetch it again while the release list names the same asset; `tb323fu-ctl mesa forget %s` clears the mark",
				   prefix, k->version, k->reason, k->why, k->version);
		else
			sb_appendf(sb, "%sMesa %s is marked %s here (%s): update skips it until a newer version is offered; `tb323fu-ctl mesa forget %s` clears the mark",
				   prefix, k->version, k->reason, k->why, k->version);
	}
}
