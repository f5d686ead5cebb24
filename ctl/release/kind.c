#include "release/kind.h"
#include "common/releasename.h"
#include "common/storelayout.h"

const struct release_kind release_kind_mesa = {
	.what = "Mesa",
	.tag_prefix = MESA_TAG_PREFIX,
	.file_prefix = MESA_FILE_PREFIX,
	.store_dir = STORE_VERSIONS,
	.manifest = MANIFEST_MESA,
	.fetch = "tb323fu-ctl mesa download",
};

const struct release_kind release_kind_cts = {
	.what = "CTS",
	.tag_prefix = CTS_TAG_PREFIX,
	.file_prefix = CTS_FILE_PREFIX,
	.store_dir = STORE_CTS,
	.manifest = MANIFEST_CTS,
	.fetch = "tb323fu-ctl mesa cts update --to",
};
