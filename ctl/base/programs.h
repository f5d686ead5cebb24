/* Where the control tool finds its companion programs. */
#ifndef TB_PROGRAMS_H
#define TB_PROGRAMS_H

/* tb323fu-mesa-smoke: $TB323FU_MESA_SMOKE, else next to this executable, else
 * PREFIX/libexec/tb323fu-mesa/. NULL when none exists. */
char *find_smoke_program(void);
/* tb323fu-mesa: next to this executable, else PREFIX/bin, else NULL. */
char *find_launcher_program(void);
/* A program by name: a path with a slash as it is, else the first executable of that name in
 * $PATH; NULL when none. env names a variable that overrides both (may be NULL). */
char *find_program(const char *name, const char *env);

#endif
