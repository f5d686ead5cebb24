/* The rule for version names (docs/design.md §4), one definition for both programs: the
 * launcher checks names it reads from links and env files, the control tool names from
 * MANIFESTs, release lists, file names and the command line. */
#ifndef TB_VERSION_NAME_H
#define TB_VERSION_NAME_H

/* [A-Za-z0-9._+-], 1 to 64 bytes, starting with a digit; so a name is never ".", "..", a
 * path, an option or an empty string. */
int version_name_ok(const char *v);

#endif
