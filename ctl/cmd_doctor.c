/* Placeholder until doctor lands. */
#include "cli.h"

COMMAND(doctor)
{
	struct tb_error e = {0};
	tb_fail(&e, TB_EFAIL, "this command is not available in this build");
	return outcome_fail(o, &e);
}
