/* app list [--user]: every application rule, the system's and the caller's own. */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "scope/app_scope.h"
#include "apprules/rules.h"
#include "base/alloc.h"
#include "base/error.h"
#include "base/strbuf.h"

#include <string.h>

struct app_user_opts {
	int user;
};

static int cmd_app_list(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)c;
	int user = ((const struct app_user_opts *)opts)->user;
	json_object *arr = json_object_new_array();
	struct strbuf lines = {0}, gone = {0};
	sb_append(&lines, "");
	sb_append(&gone, "");
	app_rules_summary(s, !user, arr, &lines, &gone);
	if (!o->fields)
		o->fields = json_object_new_object();
	json_object_object_add(o->fields, "rules", arr);
	outcome_say(o, "%s%s%s", lines.len ? lines.buf : user ? "no application has a rule of yours" : "no application has a rule",
		    gone.len ? "\n" : "", gone.buf);
	/* the last newline of gone's sentences is not part of the report */
	if (o->message[0] && o->message[strlen(o->message) - 1] == '\n')
		o->message[strlen(o->message) - 1] = '\0';
	sb_free(&lines);
	sb_free(&gone);
	return TB_OK;
}

static const struct cli_option app_list_options[] = {APP_USER_OPTION(struct app_user_opts), CLI_END};

const struct cli_command app_list_command = {
	.name = "app list",
	.args = "[--user]",
	.summary = "every application rule, the system's and your own (--user: yours)",
	.example = "tb323fu-ctl mesa app list",
	.options = app_list_options,
	.opts_size = sizeof(struct app_user_opts),
	.open = OPEN_READER,
	.run = cmd_app_list,
};
