/* The Open Device Helper's helper.toml, as far as its settings are also ours (docs/design.md
 * §5, §13). */
#ifndef TB_HELPER_TOML_H
#define TB_HELPER_TOML_H

#include "base/config.h"

/* Takes the Open Device Helper's channel and signature policy from its helper.toml ([kernel]
 * channel, require_signature, public_keys) where mesa.conf left them unset. A missing file
 * changes nothing; one that is there but is not TOML, or sets one of these keys wrongly,
 * makes signatures required and leaves a sentence (file, line) in helper_problem. */
void config_apply_helper_toml(struct config *c, const char *path);

#endif
