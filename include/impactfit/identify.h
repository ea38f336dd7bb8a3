/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — contact parameters identified from measured impacts (drop tests).
 *
 * The model (impact.h): for every measured impact i (effective mass mass_i, approach velocity v_i)
 *     mass_i δ'' + k δ^n + c δ^m δ' = 0,   δ(0) = 0, δ'(0) = v_i,
 * under one transition condition (default C). Three damping laws:
 *     hc      Hunt–Crossley, m = n; parameters n, k, λ (c is called λ)
 *     linear  linear damper, m = 0; parameters n, k, c
 *     zhang   arbitrary exponent (Zhang et al. 2021); parameters n, m, k, λ
 * Any of them may be fixed. Units: k in N/m^n, c (λ) in N·s·m^-(m+1), v in m/s, dt in s,
 * fmax in N, mass in kg.
 *
 * Measurements per impact: the coefficient of restitution e (always), and optionally the contact
 * duration dt and the peak contact force fmax. The fit minimises the weighted relative misfit
 *     S = Σ_i Σ_q [w_q (y_q,sim(v_i, mass_i; n, m, k, c) − y_q,i) / y_q,i]²,   q ∈ {e, dt, fmax},
 * each y_sim from one simulation of the impact engine (e_out, t_contact, f_max; ~1e-13 accurate).
 *
 * Search coordinates. k and c are searched in log space, but not as ln k and ln c directly: the unit
 * of k (N/m^n) changes with n, so at fixed k a change of n moves the penetration scale by orders
 * of magnitude, and ln k and n are nearly collinear. The search uses the engine's scaling instead
 * (impact.h): at a reference row r (the median velocity),
 *     s_k = ln(δ_m0,r / L),   δ_m0,r = [(n+1) mass_r v_r² / (2k)]^(1/(n+1)),
 *     s_c = ln ζ_r,           ζ_r = c δ_m0,r^(m+1) / (mass_r v_r),
 * where L is the penetration scale read from the data at row r (v_r dt_r / 3 from the contact
 * duration, (n+1) mass_r v_r² / (2 fmax_r) from the peak force, their geometric mean when both are
 * given); e_r depends on (n, m, s_c) only. Bounded box: n ∈ [n_lo, n_hi], m ∈ [m_lo, m_hi] (defaults
 * [0.5, 3] and [0, 3]), |s_k| ≤ ln(box_factor), and ζ_r within box_factor of the range of ζ that
 * reproduces e_r exactly over the corners of the (n, m) box (inverse.h); box_factor = 30 by default.
 * When neither dt nor fmax is measured there is no length scale: k cannot be identified (e depends
 * on k and c only through ζ) and must be fixed (EINVAL otherwise).
 *
 * Method: a global search of the box (NLopt CRS2 with local mutation, its population seeded with
 * nlopt_srand(seed) — NLopt's own generator state —, or DIRECT-L, or none), which includes the
 * data-derived start (box centre, ζ_r from the inverse solver at the mid (n, m)); then a local
 * polish (NLopt BOBYQA) to |Δx| ≤ xtol in the search coordinates; both run the engine at
 * rtol = 1e-10 (e to ~2e-11, half the cost). Then Gauss–Newton steps at the engine's full
 * accuracy with the finite-difference Jacobian below, through the same truncated SVD (never along
 * an undetermined direction), n and m clamped to their bounds, each accepted only if it lowers S:
 * they take exact data from BOBYQA's ~1e-9 to ~1e-14. A parameter point where an impact cannot
 * be simulated (e.g. no separation under A) scores a residual of 10 per quantity of that row.
 * Simulations end at 500 max(1, ζ) δ_m0/v.
 *
 * Uncertainty. J = ∂r/∂u is the Jacobian of the N weighted residuals in the fit coordinates
 * u = (n, m, ln k, ln c) of the free parameters, by central differences with step 1e-4 (truncation
 * ~1e-8, rounding ~1e-13/1e-4 = 1e-9 relative: negligible for standard errors). Its columns are
 * scaled to unit norm, J D⁻¹ = U Σ Vᵀ (GSL SVD), and a direction with σ_j / σ_1 < ident_tol
 * (default 1e-6, far above the ~1e-9 finite-difference noise, far below any practically
 * determined combination) is reported as not identifiable, with the combination Σ_i d_i u_i it
 * leaves undetermined; every parameter with |V_ij| > 1e-3 in such a direction is marked not
 * identifiable. A column below 1e-7 × the largest (a parameter without effect, e.g. n on
 * Hunt–Crossley e) is taken as zero before the scaling, which would otherwise blow its
 * finite-difference noise up to a unit column. The covariance is Cov_u = s² D⁻¹ V Σ⁺² Vᵀ D⁻¹ over the determined directions, with
 * s² = S / (N − p) when N > p (the weights then only need to be proportional to 1/σ of each
 * relative measurement error), else s² = 1 (the weights must be 1/σ). Standard errors are those of
 * u (n, m absolute; ln k, ln c: relative errors of k and c), linearised at the optimum: they are
 * meaningful when the misfit is small and the optimum is inside the bounds (warnings otherwise).
 *
 * Warnings (res->warning, one line each): an undetermined combination; n or m within 1e-6 of the
 * bound width of a bound, k or c at the edge of the search box; no redundancy (N ≤ p); a poorly
 * determined parameter (2 SE wider than the bounds of n or m, or than a factor 10 for k, c); an
 * rms weighted residual above 0.1 (the model may not describe the data).
 */
#ifndef IMPACTFIT_IDENTIFY_H
#define IMPACTFIT_IDENTIFY_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- measured data ----------------------------------------------------------------------------- */

/* Columns beyond v and e (bit mask of impactfit_identify_data.columns). */
#define IMPACTFIT_IDENTIFY_COL_DT 1u
#define IMPACTFIT_IDENTIFY_COL_FMAX 2u
#define IMPACTFIT_IDENTIFY_COL_MASS 4u

/* Limits of the data file parser. */
#define IMPACTFIT_IDENTIFY_MAX_LINE 1024   /* characters per line, without the newline */
#define IMPACTFIT_IDENTIFY_MAX_ROWS 100000 /* data rows */

typedef struct impactfit_identify_row {
  double v;    /* approach velocity, m/s, > 0 */
  double e;    /* coefficient of restitution, 0 < e ≤ 1 */
  double dt;   /* contact duration, s, > 0 (0 when not measured) */
  double fmax; /* peak contact force, N, > 0 (0 when not measured) */
  double mass; /* effective mass, kg, > 0 */
  int line;    /* line of the source file (0 for rows made in code) */
} impactfit_identify_row;

/* A data set. The parser allocates it (free with impactfit_identify_data_free); a caller may also
 * build one in its own storage. */
typedef struct impactfit_identify_data {
  size_t rows;
  impactfit_identify_row *row;
  unsigned columns; /* IMPACTFIT_IDENTIFY_COL_* present (every row has them) */
  char source[256]; /* file name used in messages */
} impactfit_identify_data;

/* Parses CSV text of `len` bytes (NUL bytes are an error, the text need not be NUL-terminated).
 * Format: a header line naming the columns, in any order, each at most once: v and e (required),
 * dt, fmax, mass (optional); then one line per impact with exactly as many numeric fields
 * (C-locale numbers as strtod reads them, no quotes). Fields may be surrounded by blanks; lines
 * may end in LF or CRLF; a leading UTF-8 byte order mark is skipped; lines whose first non-blank
 * character is '#' and blank lines are skipped. Every rejection is EPARSE with the message
 * "SOURCE:LINE: reason": empty file, missing/unknown/duplicate/empty column names, wrong field
 * count, empty field, a field that is not a number (strict: the whole field), NaN or infinity,
 * v ≤ 0, e ∉ (0, 1], dt ≤ 0, fmax ≤ 0, mass ≤ 0, a line longer than IMPACTFIT_IDENTIFY_MAX_LINE,
 * a NUL byte, more than IMPACTFIT_IDENTIFY_MAX_ROWS rows, a header without data rows. ENOMEM when
 * out of memory. `source` (may be NULL: "<data>") names the text in messages. *out = NULL on
 * failure. */
IMPACTFIT_EXPORT int impactfit_identify_data_parse(const char *text, size_t len, const char *source,
                                                   impactfit_identify_data **out, impactfit_error *err);
/* Reads and parses a file (EINVAL "cannot read PATH: reason" when it cannot be read). */
IMPACTFIT_EXPORT int impactfit_identify_data_read(const char *path, impactfit_identify_data **out,
                                                  impactfit_error *err);
IMPACTFIT_EXPORT void impactfit_identify_data_free(impactfit_identify_data *d); /* NULL: no-op */

/* Sets the effective mass of every row (for files without a mass column). EINVAL when the data
 * already have a mass column or mass is not finite and > 0. */
IMPACTFIT_EXPORT int impactfit_identify_data_set_mass(impactfit_identify_data *d, double mass, impactfit_error *err);

/* A data set of nv·repeat rows made in code: each speed v[i] (m/s, finite, > 0) `repeat` times
 * (1 ≤ repeat, rows in the order v[0] × repeat, v[1] × repeat, ...), every row with the effective
 * mass `mass` (kg, finite, > 0) and e, dt, fmax 0 (for impactfit_identify_synth to fill); columns
 * v, e and mass. EINVAL "approach velocities must be > 0, got V", "N rows, at most
 * IMPACTFIT_IDENTIFY_MAX_ROWS" or an invalid mass/repeat; ENOMEM. Free with
 * impactfit_identify_data_free. */
IMPACTFIT_EXPORT int impactfit_identify_data_speeds(const double *v, size_t nv, size_t repeat, double mass,
                                                    impactfit_identify_data **out, impactfit_error *err);

/* The data as the CSV text impactfit_identify_data_parse reads: the header "v,e" followed by
 * ",dt", ",fmax", ",mass" for the IMPACTFIT_IDENTIFY_COL_* bits set in `columns` (in that order,
 * whatever d->columns says), then one line per row, every value printed with `digits` significant
 * digits (1..17; 17 reads back exactly), C locale, "\n" line ends. *text is NUL-terminated (free
 * with free()), *len its length (len may be NULL). EINVAL for digits out of range; ENOMEM. */
IMPACTFIT_EXPORT int impactfit_identify_data_format(const impactfit_identify_data *d, unsigned columns, int digits,
                                                    char **text, size_t *len, impactfit_error *err);

/* Checks a data set (as the parser does, plus: at least one row, every row with a mass). EINVAL
 * "SOURCE:LINE: reason" (row index instead of line for rows made in code). */
IMPACTFIT_EXPORT int impactfit_identify_data_check(const impactfit_identify_data *d, impactfit_error *err);

/* ---- models, parameters, methods --------------------------------------------------------------- */

/* Parameter slots, in the order of every 4-element array below. */
enum {
  IMPACTFIT_IDENTIFY_N = 0, /* spring exponent n */
  IMPACTFIT_IDENTIFY_M = 1, /* damping exponent m */
  IMPACTFIT_IDENTIFY_K = 2, /* stiffness k */
  IMPACTFIT_IDENTIFY_C = 3, /* damping coefficient c (λ) */
  IMPACTFIT_IDENTIFY_NPAR = 4
};
/* Measured quantities, in the order of the weight arrays. */
enum { IMPACTFIT_IDENTIFY_QE = 0, IMPACTFIT_IDENTIFY_QDT = 1, IMPACTFIT_IDENTIFY_QFMAX = 2, IMPACTFIT_IDENTIFY_NQ = 3 };

/* Names of the slots ("n", "m", "k", "c") and quantities ("e", "dt", "fmax"). */
IMPACTFIT_EXPORT const char *impactfit_identify_param_name(int slot);
IMPACTFIT_EXPORT const char *impactfit_identify_quantity_name(int q);

/* A damping law: constant type objects, compared by address. */
typedef struct impactfit_identify_model {
  const char *name;         /* "hc", "linear", "zhang" */
  const char *summary;      /* one line */
  const char *damping_name; /* "lambda" or "c" */
  int m_rule;               /* 0: m = n; 1: m = 0; 2: m is a parameter */
} impactfit_identify_model;

IMPACTFIT_EXPORT extern const impactfit_identify_model *const impactfit_identify_hc;
IMPACTFIT_EXPORT extern const impactfit_identify_model *const impactfit_identify_linear;
IMPACTFIT_EXPORT extern const impactfit_identify_model *const impactfit_identify_zhang;
/* Looks a model up by name; NULL when unknown. */
IMPACTFIT_EXPORT const impactfit_identify_model *impactfit_identify_model_from_name(const char *name);
/* Completes a parameter set value[] = (n, m, k, c) of model M (e.g. the true parameters of synthetic
 * data): m is set by the model's rule (m = n for hc, m = 0 for linear; zhang keeps the given m), then
 * the set is checked against the module's domain: 0 < n ≤ 10, 0 ≤ m ≤ 10, k > 0, c ≥ 0, all finite.
 * EINVAL "need 0 < n <= 10, 0 <= m <= 10, k > 0, D >= 0" (D the model's damping name) otherwise. */
IMPACTFIT_EXPORT int impactfit_identify_model_values(const impactfit_identify_model *M,
                                                     double value[IMPACTFIT_IDENTIFY_NPAR], impactfit_error *err);

/* A global search method: constant type objects. */
typedef struct impactfit_identify_global {
  const char *name;    /* "crs", "direct", "none" */
  const char *summary; /* one line */
} impactfit_identify_global;

IMPACTFIT_EXPORT extern const impactfit_identify_global *const impactfit_identify_global_crs;
IMPACTFIT_EXPORT extern const impactfit_identify_global *const impactfit_identify_global_direct;
IMPACTFIT_EXPORT extern const impactfit_identify_global *const impactfit_identify_global_none;
IMPACTFIT_EXPORT const impactfit_identify_global *impactfit_identify_global_from_name(const char *name);

typedef struct impactfit_identify_params {
  const impactfit_identify_model *model;   /* default hc */
  const impactfit_transition *transition;  /* default C */
  int fixed[IMPACTFIT_IDENTIFY_NPAR];      /* 1: the slot is held at value[slot]; default none */
  double value[IMPACTFIT_IDENTIFY_NPAR];   /* values of the fixed slots (m fixed only for zhang) */
  double n_lo, n_hi;                       /* bounds of n, default [0.5, 3] (0 < n_lo < n_hi ≤ 10) */
  double m_lo, m_hi;                       /* bounds of m (zhang), default [0, 3] (0 ≤ m_lo < m_hi ≤ 10) */
  double weight[IMPACTFIT_IDENTIFY_NQ];    /* weights of e, dt, fmax (≥ 0), default 1; 0 leaves a
                                             quantity out; a quantity without a column is left out */
  double box_factor;                       /* search box half-width factor for k and c, default 30 (> 1) */
  const impactfit_identify_global *global; /* default crs */
  int global_maxeval;                      /* evaluations of S in the global search; default 0 =
                                             automatic: 30 (p + 1)², p free parameters */
  int local_maxeval;                       /* BOBYQA evaluations, default 2000 */
  double xtol;                             /* BOBYQA stop in the search coordinates, default 1e-9 */
  int newton_steps;                        /* Gauss–Newton steps after BOBYQA, default 4 (0: none) */
  unsigned long seed;                      /* seed of the CRS population (NLopt's generator), default 1 */
  double ident_tol;                        /* relative singular value flagged, default 1e-6 */
} impactfit_identify_params;

IMPACTFIT_EXPORT impactfit_identify_params impactfit_identify_default_params(void);

/* ---- results ----------------------------------------------------------------------------------- */

#define IMPACTFIT_IDENTIFY_MAX_WARN 12

typedef struct impactfit_identify_result {
  double value[IMPACTFIT_IDENTIFY_NPAR];  /* n, m, k, c at the optimum (fixed ones and m = n or 0
                                            by the model's rule included) */
  int free[IMPACTFIT_IDENTIFY_NPAR];      /* 1 for the fitted slots */
  int nfree;                              /* p */
  double se_fit[IMPACTFIT_IDENTIFY_NPAR]; /* standard error in the fit coordinate: n, m absolute,
                                             ln k and ln c (relative error of k, c); 0 for slots
                                             that are not fitted; −1 when not identifiable */
  double se[IMPACTFIT_IDENTIFY_NPAR];     /* the same in the parameter's units (k, c: value·se_fit);
                                            0 not fitted, −1 not identifiable */
  double corr[IMPACTFIT_IDENTIFY_NPAR][IMPACTFIT_IDENTIFY_NPAR]; /* correlation of the fit
                                            coordinates; 0 where a slot is not fitted or not
                                            identifiable, 1 on the diagonal of fitted slots */
  int identifiable[IMPACTFIT_IDENTIFY_NPAR];                     /* 1 determined by the data (also 1 when not fitted) */
  int at_bound[IMPACTFIT_IDENTIFY_NPAR];                         /* 1: n or m at its bound, k or c at the box edge */
  double sv[IMPACTFIT_IDENTIFY_NPAR]; /* singular values σ_j/σ_1 of the column-scaled Jacobian,
                                            descending (nfree of them) */
  int n_null;                         /* directions with σ_j/σ_1 < ident_tol */
  double null_dir[IMPACTFIT_IDENTIFY_NPAR][IMPACTFIT_IDENTIFY_NPAR]; /* null_dir[j][slot]: unit
                                            vector of the j-th undetermined combination in the fit
                                            coordinates (n, m, ln k, ln c) */
  double cost;                                                       /* S at the optimum */
  double rms;                                                        /* sqrt(S / N) */
  double sigma;                                                      /* s = sqrt(S/(N − p)), or 1 when N ≤ p */
  int nres;                                                          /* N: rows × quantities used */
  int dof;                                                           /* N − p (may be ≤ 0) */
  int quantities;                                                    /* bit q set when quantity q was used */
  long evals_global, evals_local, newton_accepted;
  long simulations;                                                        /* impacts simulated in the whole fit */
  double box_lo[IMPACTFIT_IDENTIFY_NPAR], box_hi[IMPACTFIT_IDENTIFY_NPAR]; /* the search box in the
                                            search coordinates (n, m, s_k, s_c); equal ends for
                                            slots not searched */
  double length_scale; /* L, m (0 when k is fixed and no length is measured) */
  int ref_row;         /* index of the reference row r */
  int nwarn;
  char warning[IMPACTFIT_IDENTIFY_MAX_WARN][320]; /* one line each, without a newline */
} impactfit_identify_result;

/* One row at given parameters. */
typedef struct impactfit_identify_row_fit {
  double e, dt, fmax;       /* simulated restitution, contact duration (s), peak force (N) */
  double r_e, r_dt, r_fmax; /* relative residuals (sim − measured)/measured; 0 when not measured */
  double zeta;              /* the row's scaled damping ζ */
} impactfit_identify_row_fit;

typedef struct impactfit_identify_workspace impactfit_identify_workspace;

/* A workspace holds an engine and an inverse workspace and grows its row storage as needed; one
 * per thread. */
IMPACTFIT_EXPORT impactfit_identify_workspace *impactfit_identify_alloc(void);
IMPACTFIT_EXPORT void impactfit_identify_free(impactfit_identify_workspace *ws); /* NULL: no-op */

/* Fits the free parameters to the data (see the header comment). rows_out (may be NULL) receives
 * d->rows simulated rows at the optimum. Returns 0 (warnings in res->warning), EINVAL (invalid
 * data or parameters, or k free without dt or fmax), ENOMEM, ENOCONV (no parameter point of the
 * box could be simulated), or an engine failure at the optimum. A fit whose parameters are not
 * all identifiable still returns 0: see res->identifiable and the warnings. Cost: about
 * (evals_global + evals_local + (newton_steps + 1)(2p + 1)) × rows simulations of 10–35 µs each
 * (res->simulations counts them); 0.1–0.5 s for 10–20 rows with the defaults (measured). */
IMPACTFIT_EXPORT int impactfit_identify_fit(impactfit_identify_workspace *ws, const impactfit_identify_data *d,
                                            const impactfit_identify_params *p, impactfit_identify_result *res,
                                            impactfit_identify_row_fit *rows_out, impactfit_error *err);

/* Simulates every row with the parameters value[] = (n, m, k, c) (m as given: the model's rule is
 * not applied) under `transition` (NULL: C) and fills rows_out[0..d->rows). *cost (may be NULL)
 * receives S with the given weights (NULL: all 1) over the quantities the data have. */
IMPACTFIT_EXPORT int impactfit_identify_predict(impactfit_identify_workspace *ws, const impactfit_identify_data *d,
                                                const double value[IMPACTFIT_IDENTIFY_NPAR],
                                                const impactfit_transition *transition, const double *weight,
                                                impactfit_identify_row_fit *rows_out, double *cost,
                                                impactfit_error *err);

/* ---- the damping that reproduces each row's e exactly ----------------------------------------- */

typedef struct impactfit_identify_row_damping {
  double lambda_hc; /* Hunt–Crossley (m = n): λ = ε(e) k / v, ε exact (hc.h) under A, C, D; the
                       inverse solver under B */
  double c_linear;  /* linear damper (m = 0): c_opt under C (inverse.h), the inverse solver's c
                       under the other conditions */
  double lambda_m;  /* damping with exponent m (Zhang et al.), inverse solver */
  double alpha;     /* Zhang's modification parameter α for lambda_m (0 when e = 1: undefined) */
  int status;       /* 0, or the failure of this row (the fields are then 0) */
} impactfit_identify_row_damping;

/* For each row, with the spring n, k given (e.g. identified) and a damping exponent m for the
 * third column, the damping coefficient of each law that gives e_out = e of that row exactly
 * (relative tolerance 1e-10): how constant these are across the velocities shows which law the
 * data follow (for the right law they do not depend on v). Returns 0 when every row was solved,
 * else the first failure (the other rows are still solved; see out[i].status). */
IMPACTFIT_EXPORT int impactfit_identify_per_row(impactfit_identify_workspace *ws, const impactfit_identify_data *d,
                                                double n, double k, double m, const impactfit_transition *transition,
                                                impactfit_identify_row_damping *out, impactfit_error *err);

/* How much each per-row damping varies across the rows: cv[j] = s_j / mean_j for j = lambda_hc,
 * c_linear, lambda_m over the rows with status 0, s the sample standard deviation (divisor
 * ok − 1) from the running sums (Σx, Σx²) and 0 when the mean is not > 0 or the variance rounds
 * below 0. Returns the number of rows with status 0; cv is set only when it is at least 2. */
IMPACTFIT_EXPORT size_t impactfit_identify_per_row_spread(const impactfit_identify_row_damping *rows, size_t n,
                                                          double cv[3]);

/* ---- synthetic data ---------------------------------------------------------------------------- */

/* Fills e, dt and fmax of every row of d (v and mass must be set) by simulating the impact with
 * value[] = (n, m, k, c) under `transition` (NULL: C), then multiplies each by (1 + noise·g) with
 * g standard normal (GSL's mt19937 seeded with `seed`, gsl_ran_gaussian; drawn in the order e, dt,
 * fmax per row whatever columns are kept, so a column's values do not depend on the others).
 * A noisy e outside (0, 1] is redrawn (the draw count is deterministic for a seed). noise in
 * [0, 0.5]. d->columns is not changed: the caller chooses which columns to keep. */
IMPACTFIT_EXPORT int impactfit_identify_synth(impactfit_identify_workspace *ws, impactfit_identify_data *d,
                                              const double value[IMPACTFIT_IDENTIFY_NPAR],
                                              const impactfit_transition *transition, double noise, unsigned long seed,
                                              impactfit_error *err);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_IDENTIFY_H */
