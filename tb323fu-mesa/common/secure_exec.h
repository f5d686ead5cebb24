/* Programs the loaders will not switch (docs/design.md §18): a program file with set-user-ID
 * or set-group-ID bits or file capabilities (security.capability) starts with AT_SECURE, and
 * then the dynamic linker ignores LD_LIBRARY_PATH and the Vulkan loader VK_DRIVER_FILES and
 * VK_ICD_FILENAMES: the program gets the distribution's Mesa whatever the store's variables
 * say. Shared by the launcher (`run` says so, `which --pid` reports a running one as not
 * switchable) and doctor. No stdio, no allocation. */
#ifndef TB_SECURE_EXEC_H
#define TB_SECURE_EXEC_H

#include <stddef.h>

enum {
	SECURE_SETUID = 1,
	SECURE_SETGID = 2,
	SECURE_CAPS = 4, /* file capabilities */
};

/* Why the program file at path would start with AT_SECURE (SECURE_* bits) for a user of the
 * desktop, 0 when it would not (or it cannot be looked at). for_caller: for this process's
 * own user, as the kernel decides (root gains no capability from a file, a set-user-ID file
 * of one's own changes nothing). */
int secure_exec_file(const char *path, int for_caller);
/* The words for people of those bits ("file capabilities", "the set-user-ID bit", …). */
const char *secure_exec_words(int why);
/* The program execvp would start for name (a path when name has a '/', else the first
 * executable of $PATH) into out; 0, or -1 when there is none. */
int secure_exec_lookup(const char *name, char *out, size_t cap);
/* Whether the running process pid started with AT_SECURE (its auxiliary vector): 1 yes, 0 no,
 * -1 unknown (gone, or not ours to read). */
int secure_exec_pid(long pid);

#endif
