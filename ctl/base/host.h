/* Facts of the machine the control tool runs on. */
#ifndef TB_HOST_H
#define TB_HOST_H

/* The architecture releases are chosen for: uname -m (aarch64, x86_64). */
const char *host_arch(void);

#endif
