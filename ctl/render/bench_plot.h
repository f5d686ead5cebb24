/* bench --history --plot FILE: each version's last ratio with its 95 % interval against the
 * noise floor, versions in release order, drawn by cairo into an SVG or a PNG. */
#ifndef TB_BENCH_PLOT_H
#define TB_BENCH_PLOT_H

#include "base/error.h"

struct json_object;

enum bench_plot_format { PLOT_NONE, PLOT_SVG, PLOT_PNG };

/* The format path's name asks for (".svg", ".png", any case), PLOT_NONE for any other. */
enum bench_plot_format bench_plot_format(const char *path);

/* Draws latest (bench_history_latest's: a line a version, release order) into path, put in
 * place whole by rename; figure names the ratio's figure (NULL: the geometric mean). Loads
 * cairo first: without it, the failure says which package brings it. */
int bench_plot_write(const char *path, struct json_object *latest, const char *figure, struct tb_error *e);

#endif
