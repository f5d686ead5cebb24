/* The system's OpenCL vendor file of a driver, found by the library it names: the
 * distribution's build of the store's driver (docs/design.md §6, §10). Shared by the launcher's
 * `distro` and bench's distribution side; no stdio, so the static launcher can use it. */
#ifndef TB_VENDORFILE_H
#define TB_VENDORFILE_H

#include <stddef.h>

/* Where ocl-icd reads vendor files: $OPENCL_VENDOR_PATH, else /etc/OpenCL/vendors. */
const char *vendor_dir(void);

/* The file name of the library an OpenCL vendor file names (its first line, without the
 * directories) into out; 0, or -1 when the file cannot be read or the name does not fit. */
int vendor_library_name(const char *file, char *out, size_t cap);

/* The first vendor file of dir (in name order) that names a library called lib and, when it
 * names it by path, one that exists; its path into out. 0, or -1 when there is none. */
int vendor_file_naming(const char *dir, const char *lib, char *out, size_t cap);

#endif
