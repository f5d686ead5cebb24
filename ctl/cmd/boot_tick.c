/* boot-tick: count one start of the version on trial (once a boot, by systemd). */
#include "cli/cli.h"
#include "cli/command.h"
#include "cmd/commands.h"
#include "render/lifecycle_say.h"
#include "base/strbuf.h"
#include "lifecycle/lifecycle.h"

static int boot_tick_now(const struct lc_ctx *c, struct lc_result *r, struct tb_error *e)
{
	return lc_boot_tick(c, NULL, r, e);
}

static int cmd_boot_tick(struct cli *c, const void *opts, struct store *s, struct outcome *o)
{
	(void)opts;
	struct lc_result r;
	/* the journal read from the last cursor and the policy applied (keep_after_clean_boots
	 * too) before the start is counted (docs/design.md §18) */
	struct strbuf crash_said = {0};
	read_crashes(c, s, o, 1, &crash_said);
	if (run_transition(c, boot_tick_now, &r, s, o)) {
		say_crashes(o, &crash_said);
		return o->code;
	}
	if (r.switched_off && r.current_gone == 2) {
		outcome_bool(o, "switched_off", 1);
		outcome_say(o, "the store's link current points at %s, outside versions/; the session was switched to the distribution's Mesa (see `tb323fu-ctl mesa status`)",
			    r.version);
	} else if (r.switched_off && r.current_gone) {
		outcome_bool(o, "switched_off", 1);
		outcome_say(o, "Mesa %s, the current version, is gone from %s/versions; the session was switched to the distribution's Mesa (see `tb323fu-ctl mesa status`)",
			    r.version, s->root);
	} else if (r.switched_off) {
		outcome_bool(o, "switched_off", 1);
		outcome_say(o, "Mesa %s was not confirmed with `tb323fu-ctl mesa keep` after %d starts; the distribution's Mesa is used from now on",
			    r.version, r.max);
	} else if (r.counted) {
		outcome_int(o, "tries", r.tries);
		outcome_say(o, "start %d of %d of Mesa %s on trial; confirm it with `tb323fu-ctl mesa keep`", r.tries, r.max, r.version);
	} else if (r.enabled && r.trial) {
		outcome_say(o, "this start of Mesa %s is already counted (%d of %d)", r.version, r.tries, r.max);
	} else {
		outcome_say(o, "no Mesa version is on trial");
	}
	say_repaired(o, &r);
	say_crashes(o, &crash_said);
	return TB_OK;
}

static int boot_tick_answer(const struct store *s, const struct lc_view *v, const void *opts,
			    struct outcome *o)
{
	(void)s, (void)opts;
	if (!lc_nothing_on_trial(v))
		return 0;
	outcome_say(o, "no Mesa version is on trial");
	return 1;
}

const struct cli_command boot_tick_command = {
	.name = "boot-tick",
	.args = "",
	.summary = "count one start of the version on trial (run once a boot by systemd)",
	.example = "tb323fu-ctl --wait mesa boot-tick",
	.open = OPEN_WRITER,
	.writes = 1,
	.done_without_store = "no Mesa version is on trial",
	.answer = boot_tick_answer,
	.run = cmd_boot_tick,
};
