/* The mark `make install` looks for to tell our programs from another project's of the same
 * name (the Open Device Helper installs its own tb323fu-ctl and tb323fu-mesa): a file
 * `make install` would replace (programs, man pages, completion, units, the profile.d file)
 * is replaced only when it carries this string; dist/ and the man page rule write it into
 * each of ours (docs/design.md §13). */
#ifndef TB_IDENT_H
#define TB_IDENT_H

#define TB_IDENT_MARK "tb323fu-mesa-toolchain-program"

/* Kept in the binary even by --gc-sections (used + retain). */
#define TB_IDENT_DEFINE(prog)                                                              \
	__attribute__((used, retain)) static const char tb_ident[] = TB_IDENT_MARK " " prog

#endif
