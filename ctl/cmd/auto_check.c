/* auto-check: what the daily timer runs. It checks, and with auto_download = on also
 * downloads what the channel offers; it never installs (docs/design.md §13). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/remote.h"
#include "render/lifecycle_say.h"
#include "base/strbuf.h"

#include <stdlib.h>

/* check, and with auto_download = on also download what the channel offers; it never
 * installs (docs/design.md §13). */
static int cmd_auto_check(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	int rc = check_and_say(c, s, o);
	/* the journal read from the last cursor, the policy applied (docs/design.md §18) */
	struct strbuf crash_said = {0};
	read_crashes(c, s, o, 0, &crash_said);
	say_crashes(o, &crash_said);
	json_object *newer = NULL;
	if (rc || !c->cfg.auto_download || !o->fields ||
	    !json_object_object_get_ex(o->fields, "newer", &newer) || !json_object_get_boolean(newer))
		return rc;
	struct outcome d = {0};
	rc = download_and_say(c, s, NULL, &d);
	char *checked = o->message;
	o->message = NULL;
	outcome_say(o, "%s\n%s", checked ? checked : "", d.message ? d.message : "");
	free(checked);
	outcome_bool(o, "downloaded", rc == TB_OK);
	if (rc) {
		o->code = rc;
		o->reason = d.reason;
	}
	json_object_put(d.fields);
	free(d.message);
	return rc;
}

const struct cli_command auto_check_command = {
	.name = "auto-check",
	.args = "",
	.summary = "what the daily timer runs: check, and download when auto_download = on",
	.example = "tb323fu-ctl mesa auto-check",
	.open = OPEN_WRITER,
	.writes = 1,
	.makes_store = 1,
	.run = cmd_auto_check,
};
