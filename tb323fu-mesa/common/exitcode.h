/* The exit codes of both programs (docs/design.md §5): an engine function returns one of them,
 * a command exits with it, the helper's backend branches on it. */
#ifndef TB_EXITCODE_H
#define TB_EXITCODE_H

enum {
	TB_OK = 0,
	TB_EFAIL = 1,
	TB_EUSAGE = 2,
	TB_EBUSY = 3,
	TB_EVERIFY = 4,
	TB_ENET = 5,
	TB_ESMOKE = 6,
	/* The launcher, as a shell: a command that cannot be started, or is not found. */
	TB_ECANNOT_RUN = 126,
	TB_ENOT_FOUND = 127,
};

#endif
