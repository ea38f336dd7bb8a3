/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — parameter sweeps: declarative definition files, a parallel block-ordered runner and
 * the problem registry.
 *
 * A sweep evaluates one *problem* (simulate, hc-eps, impact-time, and the inverse problems copt,
 * zhang-alpha added by later modules) on the product grid of its *axes*. A definition file (INI,
 * parsed with inih) names the problem, its fixed parameters and options, and the axes:
 *
 *     [sweep]
 *     problem = simulate
 *     outputs = e_out, t_contact        ; optional: a subset of the problem's outputs
 *     [fixed]
 *     m = 0                             ; numeric parameters and string options
 *     transition = C
 *     [axes]                            ; first axis outermost, last axis fastest
 *     n = linear 1, 2, 5                ; start, stop, count (ends exact)
 *     c = log 0.01, 10, 31              ; geometric: start and stop non-zero, same sign
 *     v = list 0.5, 1, 2                ; a list may continue on indented lines
 *
 * Point index i (0 ≤ i < N, N = product of the axis counts) maps to axis positions in mixed radix,
 * last axis fastest; impactfit_sweep_point() gives the inputs of any index without running
 * anything, so that shards and resumed runs enumerate exactly the same points.
 *
 * The runner cuts the grid into *work units*: single points, or, for problems with solve_run, runs
 * along the innermost axis; every unit is also cut at the multiples of the block size B (default
 * 4096 points, rounded down to whole runs when a run is shorter). The units depend on the grid and
 * B only, each starts from a freshly reset problem state, so a point's row is the same whichever
 * thread, shard, MPI rank or resumed run computes it. Units are computed in blocks in parallel
 * (by default max(B, 4 T min(L, B)) points for T threads, at most 262144, so that long runs still
 * give every thread work; OpenMP, dynamic scheduling, one problem state per thread allocated once
 * per run and reused for every point), their rows formatted as CSV with %.17g, then handed in
 * index order to a callback on the calling thread. The output is therefore byte-identical for any thread
 * count, memory stays bounded and rows stream. A failed point is a row with its status name and
 * empty outputs; it is also reported to a failure callback with its message. A non-finite output
 * turns a point into an ENONFINITE failure.
 *
 * Shards: run parameters shard/shards interleave groups of G = min(L, B) points (L = the
 * innermost axis count for problems with solve_run, else 1): point x belongs to shard
 * floor(x/G) mod shards. A group is one unit (a run or a point) or, when runs are longer than a
 * block, the units of one block, so units are never split; interleaving balances the shards in
 * points (within G) and in cost (neighbouring points cost about the same). The rows of all shards,
 * merged by index, are those of the unsharded run.
 *
 * CSV columns: index, every parameter of the problem (fixed or swept, in the problem's order),
 * the selected outputs, status, rhs_evals.
 *
 * ---- Problems: built-in and your own -----------------------------------------------------------
 * A problem is a constant impactfit_sweep_problem object defined by the module that owns the
 * computation: the built-ins are simulate (impact module), copt and zhang-alpha (inverse), hc-eps
 * and impact-time (hc); impactfit_sweep_load/parse know exactly these. A program adds its own
 * problems without touching the library: it defines its own object (the fields below are the whole
 * contract) and parses definitions with impactfit_sweep_parse_with / impactfit_sweep_load_with,
 * passing the problems a definition may name (its own, and built-ins from impactfit_sweep_problem_at
 * if wanted). The runner calls check() on every point before computing anything (invalid input is
 * a definition error, exit 2 in the CLI), alloc() once per thread, reset() before every work unit,
 * solve() (or solve_run()) for the points, free() at the end. A problem never prints and never
 * allocates in solve(). tests/test_sweep.c runs problems defined in the test itself this way.
 */
#ifndef IMPACTFIT_SWEEP_H
#define IMPACTFIT_SWEEP_H

#include <stddef.h>

#include "impactfit/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of a numeric parameter. */
enum {
  IMPACTFIT_SWEEP_REQUIRED = 1u << 0,      /* no default: must be fixed or swept */
  IMPACTFIT_SWEEP_INTEGER = 1u << 1,       /* values must be whole numbers */
  IMPACTFIT_SWEEP_TOLERANCE = 1u << 2,     /* a solver tolerance or bound: listed in provenance */
  IMPACTFIT_SWEEP_MIN_EXCLUSIVE = 1u << 3, /* value > min (default: value ≥ min) */
  IMPACTFIT_SWEEP_MAX_EXCLUSIVE = 1u << 4  /* value < max (default: value ≤ max) */
};

/* A numeric input of a problem: fixed in [fixed] or swept in [axes]. */
typedef struct impactfit_sweep_param {
  const char *name; /* a C identifier, also the CSV column name */
  double def;       /* default value (ignored with IMPACTFIT_SWEEP_REQUIRED) */
  double min, max;  /* allowed range, checked for every fixed and axis value (±HUGE_VAL: none) */
  unsigned flags;
  const char *help; /* one line with the unit */
} impactfit_sweep_param;

/* A string option of a problem (fixed for the whole sweep). */
typedef struct impactfit_sweep_option {
  const char *name;
  const char *def;     /* default value */
  const char *choices; /* allowed values separated by '|' (compared case-sensitively), or NULL */
  const char *help;
} impactfit_sweep_option;

/* A problem: a constant type object (compare by address, look up by name). */
typedef struct impactfit_sweep_problem {
  const char *name;    /* "simulate" */
  const char *summary; /* one line */
  const impactfit_sweep_param *params;
  size_t n_params;
  const impactfit_sweep_option *options;
  size_t n_options;
  const char *const *outputs; /* output column names */
  size_t n_outputs;

  /* Optional: validates one point's inputs (in[i] is params[i]) beyond the per-parameter ranges,
   * e.g. combinations. No state, no allocation; returns 0 or EINVAL with a message. */
  int (*check)(const char *const *options, const double *in, impactfit_error *err);

  /* Allocates the per-thread state. options[j] is the value of options[j] (validated against
   * `choices` already); wanted[k] != 0 when outputs[k] will be written (a problem may skip work
   * for the others). Returns 0, EINVAL (an option value it rejects) or ENOMEM. *state may be NULL
   * on success if the problem needs none. */
  int (*alloc)(void **state, const char *const *options, const unsigned char *wanted, impactfit_error *err);
  /* Optional: forgets everything carried from earlier points (e.g. a continuation guess). Called
   * before every work unit: results must not depend on which thread computed what before. */
  void (*reset)(void *state);
  /* Frees the state (NULL allowed). */
  void (*free)(void *state);

  /* Solves one point: in[i] for params[i]; writes out[k] for every wanted output (finite values)
   * and the right-hand-side evaluations spent (also on failure). Returns 0 or a status (the point
   * fails: ENOSEP, ENOCONV, ...; EINVAL for inputs check() could not foresee). */
  int (*solve)(void *state, const double *in, double *out, long *rhs_evals, impactfit_error *err);

  /* Optional: solves `count` neighbouring points at once, which differ only in the innermost
   * axis, in increasing index order (continuation along that axis). in is count × n_params,
   * out count × n_outputs, row-major; rhs_evals[i], status[i] and errs[i] per point. When given,
   * the runner uses it instead of solve(); a run never crosses a block boundary and starts after
   * reset(). Returns 0 (per-point failures go to status[]) or a status that fails the whole run. */
  int (*solve_run)(void *state, size_t count, const double *in, double *out, long *rhs_evals, int *status,
                   impactfit_error *errs);

  /* Optional: the unit of each output, n_outputs strings ("-": dimensionless), for listings and
   * documentation (`impactfit sweep --help`); the units of the parameters are in their help. */
  const char *const *output_units;

  /* Optional: a problem whose parameters or outputs depend on its options (law-impact and law-damping:
   * those of the force law that option `law` names, law.h). Called by the parser once the options
   * are known and before any parameter is read (options[j] for options[j], defaults filled in, not
   * yet checked against `choices`): returns in *out a problem allocated by the hook, with its own
   * params and outputs, the name, options and functions usually this problem's; the definition then
   * is of that problem (impactfit_sweep_get_problem returns it, its CSV columns are its parameters and
   * outputs), which the sweep frees with (*out)->release(*out). Returns 0, or EINVAL with a message
   * for options it rejects. The builder (impactfit_sweep_def_*) leaves the parameter names of such a
   * problem to be checked when the definition is built. */
  int (*specialize)(const struct impactfit_sweep_problem *self, const char *const *options,
                    struct impactfit_sweep_problem **out, impactfit_error *err);
  void (*release)(struct impactfit_sweep_problem *p); /* frees what specialize returned */
} impactfit_sweep_problem;

/* The built-in problems (simulate, copt, zhang-alpha, hc-eps, impact-time), in this order; NULL past
 * the end. */
IMPACTFIT_EXPORT const impactfit_sweep_problem *impactfit_sweep_problem_at(size_t i);
/* Looks a problem up by name; NULL when unknown. */
IMPACTFIT_EXPORT const impactfit_sweep_problem *impactfit_sweep_problem_from_name(const char *name);

/* ---- definitions ---------------------------------------------------------------------------- */

typedef enum impactfit_sweep_axis_kind {
  IMPACTFIT_AXIS_LIST,
  IMPACTFIT_AXIS_LINEAR, /* start + (stop − start)·i/(count − 1), ends exact */
  IMPACTFIT_AXIS_LOG     /* 10^(log10 start + (log10 stop − log10 start)·i/(count − 1)), ends exact */
} impactfit_sweep_axis_kind;

/* Value i (0 ≤ i < count) of a LINEAR or LOG range of `count` values from start to stop, the same
 * double a sweep's axis holds (tests/test_sweep.c compares them): i = 0 gives start and i = count − 1
 * stop exactly; between, with t = i/(count − 1), start + (stop − start)·t (LINEAR) or
 * sign(start)·10^(log10|start| + (log10|stop| − log10|start|)·t) (LOG). For front ends that check
 * a range's values before building the sweep. */
IMPACTFIT_EXPORT double impactfit_sweep_range_value(impactfit_sweep_axis_kind kind, double start, double stop,
                                                    size_t count, size_t i);

/* An axis as read from the file. A LIST holds its values; a LINEAR or LOG range is kept as its
 * ends and count (values NULL), so an axis of 1e8 values costs no memory: read value i of any axis
 * with impactfit_sweep_axis_value. */
typedef struct impactfit_sweep_axis {
  const char *name;
  int param; /* index into problem->params */
  impactfit_sweep_axis_kind kind;
  double start, stop; /* LINEAR/LOG: as written; LIST: first and last value */
  size_t count;
  const double *values; /* LIST: every value in order; LINEAR/LOG: NULL */
  int line;             /* line of the definition */
} impactfit_sweep_axis;

/* Value i (0 ≤ i < ax->count) of the axis: values[i] of a LIST, impactfit_sweep_range_value of a
 * range (the double every point of the sweep gets). */
IMPACTFIT_EXPORT double impactfit_sweep_axis_value(const impactfit_sweep_axis *ax, size_t i);

typedef struct impactfit_sweep impactfit_sweep; /* a parsed definition (opaque, read-only) */

/* Reads and checks a definition file. Errors (EIO, EPARSE, EINVAL) carry a message
 * "FILE:LINE: reason" (without LINE when no single line is at fault): unknown sections or keys,
 * unknown problem, missing or duplicate axes, a parameter both fixed and swept, count 0, a log
 * range through 0, non-numbers, values outside a parameter's range, points that check() refuses. */
IMPACTFIT_EXPORT int impactfit_sweep_load(const char *path, impactfit_sweep **out, impactfit_error *err);
/* The same from text in memory; `name` stands for the file in messages and provenance. */
IMPACTFIT_EXPORT int impactfit_sweep_parse(const char *text, size_t len, const char *name, impactfit_sweep **out,
                                           impactfit_error *err);
/* The same with the problems a definition may name given by the caller (`problems[0..n_problems)`,
 * looked up by name; NULL: the built-ins). Each must have a name, alloc, free and solve or
 * solve_run (EINVAL otherwise). The objects must outlive the sweep. */
IMPACTFIT_EXPORT int impactfit_sweep_parse_with(const char *text, size_t len, const char *name,
                                                const impactfit_sweep_problem *const *problems, size_t n_problems,
                                                impactfit_sweep **out, impactfit_error *err);
IMPACTFIT_EXPORT int impactfit_sweep_load_with(const char *path, const impactfit_sweep_problem *const *problems,
                                               size_t n_problems, impactfit_sweep **out, impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_sweep_free(impactfit_sweep *s); /* NULL is a no-op */

/* ---- definitions built by API calls ------------------------------------------------------------
 * A program (a CLI grid command, a report, a binding) builds a sweep without writing INI text:
 *     impactfit_sweep_def *d;
 *     impactfit_sweep_def_new(impactfit_sweep_problem_from_name("copt"), "my grid", &d, &err);
 *     impactfit_sweep_def_fixed(d, "k", 1e7, &err);
 *     impactfit_sweep_def_option(d, "method", "fast", &err);
 *     impactfit_sweep_def_axis(d, "n", IMPACTFIT_AXIS_LINEAR, 1, 2, 11, &err);
 *     impactfit_sweep_def_axis_values(d, "e", es, ne, &err);
 *     impactfit_sweep_def_build(d, &sweep, &err);      then impactfit_sweep_run / _run_table
 * Axes are added in order (first outermost, last fastest). The calls are recorded as a canonical
 * definition text (impactfit_sweep_def_text: the file format above, every number with %.17g in the
 * C locale, so the values are kept exactly, 6 list values a line); build parses that text with the
 * definition's problem as the only known one (impactfit_sweep_parse_with), so a built sweep is
 * checked exactly like a file (the same errors, with the line of the canonical text) and its hash is
 * the XXH64 of that text: the same calls give the same hash. The problem may be the caller's own.
 * The setters fail with EINVAL on a name that is not an identifier or not a parameter of the problem;
 * everything else (ranges, duplicates, option values) is checked by build. */
typedef struct impactfit_sweep_def impactfit_sweep_def;
IMPACTFIT_EXPORT int impactfit_sweep_def_new(const impactfit_sweep_problem *problem, const char *name,
                                             impactfit_sweep_def **out, impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_sweep_def_free(impactfit_sweep_def *d); /* NULL is a no-op */
IMPACTFIT_EXPORT int impactfit_sweep_def_fixed(impactfit_sweep_def *d, const char *param, double value,
                                               impactfit_error *err);
IMPACTFIT_EXPORT int impactfit_sweep_def_option(impactfit_sweep_def *d, const char *option, const char *value,
                                                impactfit_error *err);
/* A LINEAR or LOG range (the formulas of impactfit_sweep_axis_kind). */
IMPACTFIT_EXPORT int impactfit_sweep_def_axis(impactfit_sweep_def *d, const char *param, impactfit_sweep_axis_kind kind,
                                              double start, double stop, size_t count, impactfit_error *err);
/* A LIST axis with these n values in order. */
IMPACTFIT_EXPORT int impactfit_sweep_def_axis_values(impactfit_sweep_def *d, const char *param, const double *values,
                                                     size_t n, impactfit_error *err);
/* The outputs written (default: all of the problem's). */
IMPACTFIT_EXPORT int impactfit_sweep_def_outputs(impactfit_sweep_def *d, const char *const *outputs, size_t n,
                                                 impactfit_error *err);
/* The canonical definition text (malloc'ed, NUL-terminated; free with free()). */
IMPACTFIT_EXPORT int impactfit_sweep_def_text(const impactfit_sweep_def *d, char **text, size_t *len,
                                              impactfit_error *err);
IMPACTFIT_EXPORT int impactfit_sweep_def_build(const impactfit_sweep_def *d, impactfit_sweep **out,
                                               impactfit_error *err);

IMPACTFIT_EXPORT const impactfit_sweep_problem *impactfit_sweep_get_problem(const impactfit_sweep *s);
IMPACTFIT_EXPORT const char *impactfit_sweep_name(const impactfit_sweep *s); /* file as given */
/* XXH64 (seed 0) of the definition file's bytes, as 16 lower-case hex digits. */
IMPACTFIT_EXPORT const char *impactfit_sweep_hash(const impactfit_sweep *s);
IMPACTFIT_EXPORT size_t impactfit_sweep_point_count(const impactfit_sweep *s);
IMPACTFIT_EXPORT size_t impactfit_sweep_axis_count(const impactfit_sweep *s);
IMPACTFIT_EXPORT const impactfit_sweep_axis *impactfit_sweep_get_axis(const impactfit_sweep *s, size_t i);
/* 1 if parameter i is swept; its fixed (or default) value otherwise. */
IMPACTFIT_EXPORT int impactfit_sweep_param_is_swept(const impactfit_sweep *s, size_t i);
IMPACTFIT_EXPORT double impactfit_sweep_param_value(const impactfit_sweep *s, size_t i);
/* Value of option j (fixed or default). */
IMPACTFIT_EXPORT const char *impactfit_sweep_option_value(const impactfit_sweep *s, size_t j);
/* 1 if output k is written. */
IMPACTFIT_EXPORT int impactfit_sweep_output_wanted(const impactfit_sweep *s, size_t k);

/* Inputs of point `index` (in[i] for params[i]); EINVAL when index ≥ the point count. */
IMPACTFIT_EXPORT int impactfit_sweep_point(const impactfit_sweep *s, size_t index, double *in);

/* The CSV header line (with '\n'), as written before the first row. Never NULL; owned by s. */
IMPACTFIT_EXPORT const char *impactfit_sweep_csv_header(const impactfit_sweep *s);

/* ---- running ---------------------------------------------------------------------------------- */

typedef struct impactfit_sweep_run_params {
  int threads;   /* OpenMP threads; 0: omp_get_max_threads() */
  size_t block;  /* block size B (units are cut at its multiples); 0: 4096, see
                       * impactfit_sweep_block_size */
  size_t first;  /* first point index to compute (for shards, MPI tasks and resumed runs) */
  size_t count;  /* points to compute from `first`; 0: to the end of the grid. A range that
                       * does not start and end on unit boundaries cuts the units there (its rows
                       * may then differ from the full run's for problems with solve_run) */
  size_t shard;  /* compute only this shard's points (0 ≤ shard < shards; see Shards above) */
  size_t shards; /* 0 or 1: every unit */
  size_t work;   /* points gathered per parallel block (whole units, at least one);
                       * 0: max(B, 4 T min(L, B)), at most 262144. Never changes a row */
  /* Optional: called on the calling thread after each unit that thread computed, with the points
   * computed so far by this run (including the block in flight) and how many of them failed; for
   * progress reports and for servicing messages (MPI). Non-zero stops the run early: no further
   * unit starts, the units in flight finish, the rows of the block's leading completed units are
   * handed to the rows callback, and the run returns EINTR. Gets poll_ctx, or the run's ctx when
   * poll_ctx is NULL (so that the rows may go straight to an object with its own callbacks, such as
   * an impactfit_sweep_output, while the hook reports on something else). */
  int (*poll)(void *ctx, size_t done, size_t failed);
  void *poll_ctx;
} impactfit_sweep_run_params;

IMPACTFIT_EXPORT impactfit_sweep_run_params impactfit_sweep_default_run_params(void);

/* The block size a run with `block` (0: the default 4096) uses on this grid: rounded down to whole
 * runs of the innermost axis for problems with solve_run when a run is not longer than a block.
 * Work units are cut at its multiples; results depend on it (for problems with solve_run), so
 * shards, MPI ranks and resumed runs of one result must use the same. */
IMPACTFIT_EXPORT size_t impactfit_sweep_block_size(const impactfit_sweep *s, size_t block);

/* The number of points a run with these parameters computes (its range and shard), without
 * computing anything; 0 when the parameters are invalid. */
IMPACTFIT_EXPORT size_t impactfit_sweep_run_points(const impactfit_sweep *s, const impactfit_sweep_run_params *rp);

/* Receives the rows of the run's points in [first, first + count): complete lines in index order
 * (all points of the range, or only the shard's in a sharded run, so len may be 0 there). The
 * ranges of successive calls are contiguous; when the run completes they tile its whole range, so
 * first + count is where an interrupted run resumes. Called on the calling thread of
 * impactfit_sweep_run, blocks in increasing order. Non-zero stops the run, which then returns EIO
 * (or EINTR if the callback returned EINTR). */
typedef int (*impactfit_sweep_rows_fn)(void *ctx, size_t first, size_t count, const char *rows, size_t len);
/* Receives each failed point (in index order, just before the block holding it is written). */
typedef void (*impactfit_sweep_failure_fn)(void *ctx, size_t index, int status, const char *message);

typedef struct impactfit_sweep_summary {
  size_t points;       /* points computed and handed to the rows callback */
  size_t failed;       /* of which failed */
  long long rhs_evals; /* their right-hand-side evaluations */
  double wall_seconds; /* wall time of the run */
  int threads;         /* threads used */
} impactfit_sweep_summary;

/* Runs the sweep (or the range rp->first, rp->count of it, or one shard). Returns 0 when every
 * point was computed, whether or not some failed (see summary->failed); ENOMEM, EIO/EINTR (a
 * callback stopped it: the rows already delivered stand, summary counts them) or EINVAL (bad run
 * parameters) otherwise. `failure` may be NULL. */
IMPACTFIT_EXPORT int impactfit_sweep_run(const impactfit_sweep *s, const impactfit_sweep_run_params *rp,
                                         impactfit_sweep_rows_fn rows, impactfit_sweep_failure_fn failure, void *ctx,
                                         impactfit_sweep_summary *summary, impactfit_error *err);

/* The rows of a block as numbers (impactfit_sweep_run_values): the n points delivered, in index order,
 * covering [first, first + count) as the rows callback's ranges do. Arrays are n long (in: n ×
 * n_params, out: n × n_outputs, row-major, every output of the problem whether wanted or not). The
 * outputs of a failed point (status != 0) are unspecified; errs[i].message says why it failed. Valid
 * during the call only. */
typedef struct impactfit_sweep_block {
  size_t first, count, n;
  const size_t *index;
  const double *in, *out;
  const int *status;
  const long *rhs_evals;
  const impactfit_error *errs;
} impactfit_sweep_block;
typedef int (*impactfit_sweep_values_fn)(void *ctx, const impactfit_sweep_block *b);

/* impactfit_sweep_run with the rows as numbers instead of CSV text (no formatting, no parsing): the
 * same points, order, blocks, poll and stop semantics; non-zero from `values` stops the run (EIO, or
 * EINTR when it returned EINTR). The numbers are those the CSV rows print with %.17g. */
IMPACTFIT_EXPORT int impactfit_sweep_run_values(const impactfit_sweep *s, const impactfit_sweep_run_params *rp,
                                                impactfit_sweep_values_fn values, void *ctx,
                                                impactfit_sweep_summary *summary, impactfit_error *err);

/* Runs the sweep (or rp's range or shard; rp NULL: the defaults) and returns its rows as a table in
 * memory (table.h), built from the runner's numbers (impactfit_sweep_run_values, no text): the
 * columns of the CSV header but status, which is each row's OK flag; one row per point computed, in
 * index order; the values exactly those impactfit_table_parse_csv reads from the CSV (0 for the
 * outputs of a failed point). summary->failed counts the failed points. Returns as impactfit_sweep_run; ENOMEM when the rows do not fit
 * in memory (use impactfit_sweep_run with a streaming callback for grids that large). */
struct impactfit_table;
IMPACTFIT_EXPORT int impactfit_sweep_run_table(const impactfit_sweep *s, const impactfit_sweep_run_params *rp,
                                               struct impactfit_table **out, impactfit_sweep_summary *summary,
                                               impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_SWEEP_H */
