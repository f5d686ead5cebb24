/* bench --history's charts: each version's last ratio with its 95 % interval against the
 * noise floor, versions in release order, drawn by cairo into an SVG or a PNG (--plot FILE),
 * or in text for the terminal. */
#ifndef TB_BENCH_PLOT_H
#define TB_BENCH_PLOT_H

#include "base/error.h"
#include "base/strbuf.h"

struct json_object;

enum bench_plot_format { PLOT_NONE, PLOT_SVG, PLOT_PNG };

/* The format path's name asks for (".svg", ".png", any case), PLOT_NONE for any other. */
enum bench_plot_format bench_plot_format(const char *path);

/* Draws latest (bench_history_latest's: a line a version, release order) into path, put in
 * place whole by rename; figure names the ratio's figure (NULL: the geometric mean). Loads
 * cairo first: without it, the failure says which package brings it. */
int bench_plot_write(const char *path, struct json_object *latest, const char *figure, struct tb_error *e);

/* The same in text, for a terminal of columns columns (at least 60): a heading line, then a
 * row a version on a ratio axis: '|' at 1.00x (the distribution's Mesa), ':' the noise floor
 * on each side, '-' the 95 % interval, '*' the ratio; appended to sb. */
void bench_chart_text(struct strbuf *sb, struct json_object *latest, int columns);

#endif
