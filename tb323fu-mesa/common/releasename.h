/* How releases are named on the release source (docs/design.md §4, §13): the tag of each kind
 * of release, which its signature's trusted comment repeats as tag:<tag>, and the start of its
 * tarball's name, <prefix><version>-<arch>.tar.<gz|zst|xz>. Names only. */
#ifndef TB_RELEASENAME_H
#define TB_RELEASENAME_H

/* Mesa's drivers: mesa-<version>, tb323fu-mesa-<version>-<arch>.tar.gz */
#define MESA_TAG_PREFIX "mesa-"
#define MESA_FILE_PREFIX "tb323fu-mesa-"
/* The conformance suites' binaries: cts-<version>, tb323fu-cts-<version>-<arch>.tar.gz */
#define CTS_TAG_PREFIX "cts-"
#define CTS_FILE_PREFIX "tb323fu-cts-"

#endif
