/* bench --history --plot: the chart, drawn by cairo (render/bench_plot.h). */
#include "render/bench_plot.h"
#include "gputest/bench_stats.h"
#include "base/alloc.h"
#include "base/fs.h"
#include "base/lazy_cairo.h"
#include "base/text.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define PLOT_WIDTH 800.0
#define PLOT_HEIGHT 480.0
#define MARGIN_LEFT 70.0
#define MARGIN_RIGHT 20.0
#define MARGIN_TOP 50.0
#define MARGIN_BOTTOM 90.0

/* lazylib_load's sentence names the dynamic linker's reason in its first parentheses: that
 * reason alone, for a sentence of ours. */
static const char *dlerror_of(char *msg)
{
	char *open = strchr(msg, '('), *close = open ? strstr(open, "); ") : NULL;
	if (!open || !close)
		return "not found";
	*close = 0;
	return open + 1;
}

enum bench_plot_format bench_plot_format(const char *path)
{
	size_t n = strlen(path);
	if (n > 4 && !strcasecmp(path + n - 4, ".svg"))
		return PLOT_SVG;
	if (n > 4 && !strcasecmp(path + n - 4, ".png"))
		return PLOT_PNG;
	return PLOT_NONE;
}

struct sink {
	struct atomic_out out;
	struct tb_error *e;
	int failed;
};

static cairo_status_t to_sink(void *closure, const unsigned char *data, unsigned int length)
{
	struct sink *k = closure;
	if (!k->failed && atomic_out_write(&k->out, data, length, k->e))
		k->failed = 1;
	return k->failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

struct axis {
	double lo, hi;
};

static double y_of(const struct axis *a, double ratio)
{
	return MARGIN_TOP + (a->hi - ratio) / (a->hi - a->lo) * (PLOT_HEIGHT - MARGIN_TOP - MARGIN_BOTTOM);
}

static double number_at(json_object *array, size_t i)
{
	return json_object_get_double(json_object_array_get_idx(array, i));
}

static struct axis axis_of(json_object *latest)
{
	struct axis a = {1 / (1 + BENCH_NOISE_FLOOR), 1 + BENCH_NOISE_FLOOR};
	for (size_t i = 0; i < json_object_array_length(latest); i++) {
		json_object *l = json_object_array_get_idx(latest, i), *iv = json_object_object_get(l, "interval");
		json_object *r = json_object_object_get(l, "ratio");
		double lo = iv ? number_at(iv, 0) : r ? json_object_get_double(r) : 1;
		double hi = iv ? number_at(iv, 1) : lo;
		a.lo = lo < a.lo ? lo : a.lo;
		a.hi = hi > a.hi ? hi : a.hi;
	}
	double pad = (a.hi - a.lo) * 0.08;
	a.lo -= pad;
	a.hi += pad;
	return a;
}

static void text_at(cairo_t *cr, double x, double y, const char *s)
{
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, s);
}

static void draw(cairo_t *cr, json_object *latest, const char *figure)
{
	struct axis a = axis_of(latest);
	double x0 = MARGIN_LEFT, x1 = PLOT_WIDTH - MARGIN_RIGHT;
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	/* the noise floor: a band around 1.00x, the distribution's Mesa */
	cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
	double band_top = y_of(&a, 1 + BENCH_NOISE_FLOOR), band_bottom = y_of(&a, 1 / (1 + BENCH_NOISE_FLOOR));
	cairo_rectangle(cr, x0, band_top, x1 - x0, band_bottom - band_top);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.5, 0.5, 0.5);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, x0, y_of(&a, 1));
	cairo_line_to(cr, x1, y_of(&a, 1));
	cairo_stroke(cr);
	/* the axes and their ticks */
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_move_to(cr, x0, MARGIN_TOP);
	cairo_line_to(cr, x0, PLOT_HEIGHT - MARGIN_BOTTOM);
	cairo_line_to(cr, x1, PLOT_HEIGHT - MARGIN_BOTTOM);
	cairo_stroke(cr);
	cairo_set_font_size(cr, 11);
	char label[96];
	for (int k = 0; k <= 5; k++) {
		double r = a.lo + (a.hi - a.lo) * k / 5, y = y_of(&a, r);
		snprintf(label, sizeof label, "%.2fx", r);
		text_at(cr, 8, y + 4, label);
		cairo_move_to(cr, x0 - 4, y);
		cairo_line_to(cr, x0, y);
		cairo_stroke(cr);
	}
	cairo_set_font_size(cr, 14);
	char *title = xasprintf("%s%s: the last run of each version against the distribution's Mesa",
				figure ? "figure " : "geometric mean of the figures", figure ? figure : "");
	char *shown = term_text(title, 0);
	text_at(cr, x0, 22, shown);
	free(shown);
	free(title);
	cairo_set_font_size(cr, 11);
	snprintf(label, sizeof label, "points: the ratio; bars: its 95 %% interval; grey band: the %s noise floor around 1.00x",
		 BENCH_NOISE_FLOOR_TEXT);
	text_at(cr, x0, 40, label);
	/* a column a version, release order */
	size_t n = json_object_array_length(latest);
	double step = (x1 - x0) / (double)(n ? n : 1);
	for (size_t i = 0; i < n; i++) {
		json_object *l = json_object_array_get_idx(latest, i), *iv = json_object_object_get(l, "interval");
		json_object *r = json_object_object_get(l, "ratio");
		const char *verdict = json_object_get_string(json_object_object_get(l, "verdict"));
		double x = x0 + step * ((double)i + 0.5);
		int slower = verdict && !strcmp(verdict, "slower"), unclear = !verdict || !strcmp(verdict, "unclear");
		cairo_set_source_rgb(cr, slower ? 0.8 : 0.1, slower ? 0.1 : unclear ? 0.5 : 0.3, slower ? 0.1 : unclear ? 0.5 : 0.7);
		cairo_set_line_width(cr, 2);
		if (iv) {
			double top = y_of(&a, number_at(iv, 1)), bottom = y_of(&a, number_at(iv, 0));
			cairo_move_to(cr, x, top);
			cairo_line_to(cr, x, bottom);
			cairo_move_to(cr, x - 6, top);
			cairo_line_to(cr, x + 6, top);
			cairo_move_to(cr, x - 6, bottom);
			cairo_line_to(cr, x + 6, bottom);
			cairo_stroke(cr);
		}
		if (r) {
			cairo_arc(cr, x, y_of(&a, json_object_get_double(r)), 4.5, 0, 6.283185307179586);
			cairo_fill(cr);
		}
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_save(cr);
		cairo_translate(cr, x - 4, PLOT_HEIGHT - MARGIN_BOTTOM + 10);
		cairo_rotate(cr, 0.785398163397448);
		text_at(cr, 0, 0, json_object_get_string(json_object_object_get(l, "version")));
		cairo_restore(cr);
	}
}

int bench_plot_write(const char *path, json_object *latest, const char *figure, struct tb_error *e)
{
	enum bench_plot_format format = bench_plot_format(path);
	if (format == PLOT_NONE)
		return tb_fail(e, TB_R_USAGE, "--plot wants a file named .svg or .png, not \"%s\"", path);
	struct tb_error why = {0};
	if (lazylib_load(&lazy_libcairo, &why))
		return tb_fail(e, TB_R_LIBRARY_MISSING,
			       "cannot load %s (%s), which --plot draws with; install libcairo2 "
			       "(apt-get install libcairo2), or leave --plot out",
			       lazy_libcairo.soname, dlerror_of(why.msg));
	int rc;
	struct sink k = {.e = e};
	rc = atomic_out_open(&k.out, path, 0644, e);
	if (rc)
		return rc;
	cairo_surface_t *surface = format == PLOT_SVG
		? cairo_svg_surface_create_for_stream(to_sink, &k, PLOT_WIDTH, PLOT_HEIGHT)
		: cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)PLOT_WIDTH, (int)PLOT_HEIGHT);
	cairo_t *cr = cairo_create(surface);
	draw(cr, latest, figure);
	cairo_status_t st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS && format == PLOT_PNG)
		st = cairo_surface_write_to_png_stream(surface, to_sink, &k);
	cairo_surface_finish(surface);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(surface);
	cairo_surface_destroy(surface);
	/* the fonts cairo and fontconfig cached for the labels: given back, the command ends soon */
	cairo_debug_reset_static_data();
	FcFini();
	if (st != CAIRO_STATUS_SUCCESS || k.failed) {
		atomic_out_abort(&k.out);
		return k.failed ? e->code : tb_fail(e, TB_R_FAILED, "cannot draw the chart into %s: %s", path,
							      cairo_status_to_string(st));
	}
	return atomic_out_commit(&k.out, 0, e);
}
