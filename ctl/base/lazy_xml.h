/* libxml2's functions this tool calls (clpeak's results), loaded on the first call
 * (ctl/base/lazylib.h). Include after <libxml/parser.h> and <libxml/tree.h>. xmlFree is a
 * variable holding the library's free function: the same macro reads it. */
#ifndef TB_LAZY_XML_H
#define TB_LAZY_XML_H

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "base/lazylib.h"

#define xmlReadMemory LAZY_CALL(lazy_libxml2, xmlReadMemory)
#define xmlDocGetRootElement LAZY_CALL(lazy_libxml2, xmlDocGetRootElement)
#define xmlGetProp LAZY_CALL(lazy_libxml2, xmlGetProp)
#define xmlFreeDoc LAZY_CALL(lazy_libxml2, xmlFreeDoc)
#define xmlFree LAZY_CALL(lazy_libxml2, xmlFree)

#endif
