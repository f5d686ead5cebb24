/* The store's marks for people and for JSON (marks_say.h). */
#include "cmd/marks_say.h"

json_object *marks_json(const struct marks *m)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < m->n; i++) {
		const struct mark *k = &m->v[i];
		json_object *o = json_object_new_object();
		json_object_object_add(o, "version", json_object_new_string(k->version));
		json_object_object_add(o, "reason", json_object_new_string(k->reason));
		json_object_object_add(o, "why", json_object_new_string(k->why));
		json_object_object_add(o, "refused", json_object_new_boolean(k->refused));
		json_object_object_add(o, "digest", json_object_new_string(k->digest));
		json_object_array_add(a, o);
	}
	return a;
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
