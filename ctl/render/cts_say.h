/* How the CTS the store holds is said (cts list, install, update, status, doctor), so every
 * command names it in the same words. */
#ifndef TB_CTS_SAY_H
#define TB_CTS_SAY_H

#include <json-c/json.h>

#include "store/cts.h"
#include "base/strbuf.h"

/* "dEQP-VK and 14 OpenCL-CTS binaries, 312.4 MiB" */
void cts_say_contents(struct strbuf *sb, const struct cts_facts *f);
/* {"version", "deqp_vk", "opencl_binaries", "bytes", "vk_gl_cts", "opencl_cts"} */
json_object *cts_facts_json(const struct cts_facts *f);
/* The store's current CTS: its JSON (null when none) and, into line, "CTS 2026.12.03 (…)"
 * or that none is installed and how to get it. */
json_object *cts_current_say(const struct store *s, struct strbuf *line);

#endif
