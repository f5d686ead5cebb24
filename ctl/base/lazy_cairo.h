/* cairo's functions this tool calls (bench --history --plot's chart), loaded on the first call
 * (ctl/base/lazylib.h): status, list and every other command start without it. Include after
 * <cairo.h>, <cairo-svg.h>, <fontconfig/fontconfig.h>. */
#ifndef TB_LAZY_CAIRO_H
#define TB_LAZY_CAIRO_H

#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>

#include "base/lazylib.h"

#define cairo_arc LAZY_CALL(lazy_libcairo, cairo_arc)
#define cairo_create LAZY_CALL(lazy_libcairo, cairo_create)
#define cairo_debug_reset_static_data LAZY_CALL(lazy_libcairo, cairo_debug_reset_static_data)
#define cairo_destroy LAZY_CALL(lazy_libcairo, cairo_destroy)
#define cairo_fill LAZY_CALL(lazy_libcairo, cairo_fill)
#define cairo_image_surface_create LAZY_CALL(lazy_libcairo, cairo_image_surface_create)
#define cairo_line_to LAZY_CALL(lazy_libcairo, cairo_line_to)
#define cairo_move_to LAZY_CALL(lazy_libcairo, cairo_move_to)
#define cairo_paint LAZY_CALL(lazy_libcairo, cairo_paint)
#define cairo_rectangle LAZY_CALL(lazy_libcairo, cairo_rectangle)
#define cairo_restore LAZY_CALL(lazy_libcairo, cairo_restore)
#define cairo_rotate LAZY_CALL(lazy_libcairo, cairo_rotate)
#define cairo_save LAZY_CALL(lazy_libcairo, cairo_save)
#define cairo_select_font_face LAZY_CALL(lazy_libcairo, cairo_select_font_face)
#define cairo_set_dash LAZY_CALL(lazy_libcairo, cairo_set_dash)
#define cairo_set_font_size LAZY_CALL(lazy_libcairo, cairo_set_font_size)
#define cairo_set_line_width LAZY_CALL(lazy_libcairo, cairo_set_line_width)
#define cairo_set_source_rgb LAZY_CALL(lazy_libcairo, cairo_set_source_rgb)
#define cairo_show_text LAZY_CALL(lazy_libcairo, cairo_show_text)
#define cairo_status LAZY_CALL(lazy_libcairo, cairo_status)
#define cairo_status_to_string LAZY_CALL(lazy_libcairo, cairo_status_to_string)
#define cairo_stroke LAZY_CALL(lazy_libcairo, cairo_stroke)
#define cairo_surface_destroy LAZY_CALL(lazy_libcairo, cairo_surface_destroy)
#define cairo_surface_finish LAZY_CALL(lazy_libcairo, cairo_surface_finish)
#define cairo_surface_status LAZY_CALL(lazy_libcairo, cairo_surface_status)
#define cairo_surface_write_to_png_stream LAZY_CALL(lazy_libcairo, cairo_surface_write_to_png_stream)
#define cairo_svg_surface_create_for_stream LAZY_CALL(lazy_libcairo, cairo_svg_surface_create_for_stream)
#define cairo_text_extents LAZY_CALL(lazy_libcairo, cairo_text_extents)
#define cairo_translate LAZY_CALL(lazy_libcairo, cairo_translate)
/* fontconfig, which cairo's text loads: found through cairo's handle (its dependency) */
#define FcFini LAZY_CALL(lazy_libcairo, FcFini)

#endif
