/* Where the control tool finds its companion programs. */
#ifndef TB_PROGRAMS_H
#define TB_PROGRAMS_H

/* tb323fu-mesa-smoke: $TB323FU_MESA_SMOKE, else next to this executable, else
 * PREFIX/libexec/tb323fu-mesa/. NULL when none exists. */
char *find_smoke_program(void);
/* tb323fu-mesa: next to this executable, else PREFIX/bin, else NULL. */
char *find_launcher_program(void);

#endif
