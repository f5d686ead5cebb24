/* The names of a version's Flatpak GL extension (docs/design.md §17): one rule for the
 * control tool, which writes the extension, and the launcher, which selects it for a
 * `flatpak run`. Stdio- and allocation-free. */
#ifndef TB_FLATPAKNAME_H
#define TB_FLATPAKNAME_H

#include <stddef.h>

/* The runtime whose GL extension point the exports serve, and the point itself. */
#define FLATPAK_RUNTIME "org.freedesktop.Platform"
#define FLATPAK_GL_POINT "org.freedesktop.Platform.GL"
/* An export's name begins so: org.freedesktop.Platform.GL.tb323fu-mesa-2026_10_06. */
#define FLATPAK_NAME_PREFIX "tb323fu-mesa-"
/* The variable the flatpak command reads to choose the GL extensions, and the runtime's own. */
#define FLATPAK_GL_DRIVERS_VAR "FLATPAK_GL_DRIVERS"
#define FLATPAK_GL_DEFAULT "default"
/* The Vulkan loader's choice of drivers by their manifest's file name; flatpak passes it
 * into the sandbox (it clears VK_DRIVER_FILES and VK_ICD_FILENAMES). */
#define FLATPAK_VK_SELECT_VAR "VK_LOADER_DRIVERS_SELECT"
/* glvnd's EGL vendor folders; flatpak clears it, so it goes in as flatpak's --env= only. */
#define FLATPAK_EGL_DIRS_VAR "__EGL_VENDOR_LIBRARY_DIRS"
/* The marker file at the top of an export (a GKeyFile; ours carries TB_IDENT_MARK). */
#define FLATPAK_MARKER_FILE "tb323fu-mesa.export"
/* Where the loaders' files of an export are, relative to its top: NAME.json, NAME.icd. */
#define FLATPAK_VULKAN_DIR "vulkan/icd.d"
#define FLATPAK_OPENCL_DIR "OpenCL/vendors"
/* GL in an export, where a GL extension has it and flatpak merges it from every active one
 * (the first extension's file of a name wins): glvnd's EGL vendor file, named as Mesa names
 * its own, the DRI drivers and GBM's backends (docs/design.md §17). */
#define FLATPAK_EGL_VENDOR_DIR "glvnd/egl_vendor.d"
#define FLATPAK_EGL_VENDOR_FILE "50_mesa.json"
#define FLATPAK_DRI_DIR "lib/dri"
#define FLATPAK_GBM_DIR "lib/gbm"

/* The multiarch folder of the runtime's GL extension point for this build's machine. */
#if defined(__x86_64__)
#define FLATPAK_TRIPLET "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define FLATPAK_TRIPLET "aarch64-linux-gnu"
#elif defined(__i386__)
#define FLATPAK_TRIPLET "i386-linux-gnu"
#elif defined(__arm__)
#define FLATPAK_TRIPLET "arm-linux-gnueabihf"
#else
#define FLATPAK_TRIPLET "unknown-linux-gnu"
#endif

/* The export's name of a version (the last part of its extension's ID):
 * "tb323fu-mesa-" and the version with each '.' as '_' (versions have no '_', so two
 * versions never share a name). 0 when the version has a '+' (no Flatpak name can carry it)
 * or the name does not fit n; 1 when written. */
int flatpak_export_name(const char *version, char *out, size_t n);

/* What a driver mapped inside a Flatpak sandbox is, by its path
 * (/usr/lib/<triplet>/GL/<name>/…): 1, a store's version's extension (out: the version, its
 * '_' read as '.'); 2, another GL extension (out: its name, "default" for the runtime's own);
 * 0, neither. */
int flatpak_path_extension(const char *path, char *out, size_t n);

#endif
