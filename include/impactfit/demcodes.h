/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — what real DEM codes do with the restitution a user types, version by version, and the
 * exact input that makes them give it.
 *
 * A DEM code turns its input (a restitution e, or a damping constant) and the contact's material
 * and geometry into a normal force. For every model registered here that force is, for a head-on
 * contact with penetration δ ≥ 0 and approach rate δ',
 *
 *     F = K δ^n + C δ^m δ'                                  (impact.h's element, k = K, c = C)
 *
 * with K and C constant during one contact (they depend on E, ν, the effective radius R and the
 * effective mass M, and on the user's parameter), and the contact ends in one of two ways:
 *   - A: the force may become tensile near the end; the contact ends at δ = 0;
 *   - C: the force is clamped at zero (LAMMPS `limit_damping`, LIGGGHTS `limitForce on`, YADE and
 *     Chrono always); for a free impact the bodies then part where F reaches zero.
 * Effective quantities: sphere–sphere R = r1 r2/(r1 + r2), M = m1 m2/(m1 + m2); sphere–wall
 * R = r1, M = m1 (a wall is a body of infinite radius and mass). Each model states its own
 * conventions for E* (the contact modulus) in its `law` text.
 *
 * With the force law known, the real restitution of an input is exact (impact.h, inverse.h):
 * ζ = C δ_m0^(m+1)/(M v), δ_m0 = [(n+1) M v²/(2K)]^(1/(n+1)), e = e_out(n, m, ζ, end condition).
 * For m = (n − 1)/2 (Hertz with a δ^(1/4) damper, or a linear spring with a constant dashpot) e
 * does not depend on v, K or M; for other m one damping constant gives the asked e at one speed
 * only, and impactfit_dem_solve reports the spread over a speed range.
 *
 * The registry holds, per code, version range and model: the force law above as the code's
 * source computes it (file and version cited in `source`), what the user types, the end
 * condition and the switch that changes it, and the versions run here (the Debian 12 packages
 * LAMMPS 29 Sep 2021 update 2, LIGGGHTS-PUBLIC 3.8.0 and YADE 2023.02a are the test oracle:
 * tests/dem/). A version range is as the code's sources define it: from the first version read
 * to the version whose source changes the law (LAMMPS tsuji: 29Sep2021 until 2Sep2026, which
 * adds a factor √2). A user names the version they run; the entry whose range holds it answers,
 * "formula only" unless that version was run here (impactfit_dem_model_run_for).
 */
#ifndef IMPACTFIT_DEMCODES_H
#define IMPACTFIT_DEMCODES_H

#include <stddef.h>

#include "impactfit/common.h"
#include "impactfit/impact.h"
#include "impactfit/inverse.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Geometry of a head-on contact. */
typedef enum impactfit_dem_geometry {
  IMPACTFIT_DEM_SPHERE_SPHERE = 0,
  IMPACTFIT_DEM_SPHERE_WALL = 1 /* a fixed flat wall of the same material */
} impactfit_dem_geometry;

/* A contact as the user describes it. Materials: both bodies (and the wall) have Young's modulus E
 * (Pa) and Poisson's ratio ν. Models that take a stiffness instead of a material read `kn`, in
 * the code's own convention and units (stated in the model's `law`). */
typedef struct impactfit_dem_contact {
  impactfit_dem_geometry geometry;
  double E, nu;        /* Pa, dimensionless; NaN when not given */
  double r1, r2;       /* radii, m (r2 unused for a wall) */
  double m1, m2;       /* masses, kg (m2 unused for a wall) */
  double kn;           /* the code's stiffness parameter, NaN when not given */
  double v_char;       /* the characteristic velocity of models that take one (LIGGGHTS and Chrono `hooke`),
                    m/s; NaN: impactfit_dem_solve uses the design speed */
  double tc;           /* the contact time of YADE's ViscElMat(tc, en), s; NaN when not given */
  double R_eff, M_eff; /* the effective radius (m) and mass (kg) directly, instead of r1, r2, m1, m2
                          (both or neither; the geometry still selects the code's wall conventions) */
} impactfit_dem_contact;

/* A contact with every field NaN/0 (sphere–sphere): set what you have. */
IMPACTFIT_EXPORT impactfit_dem_contact impactfit_dem_contact_default(void);
/* The mass of a sphere of radius r (m) and density rho (kg/m³): (4/3) π r³ rho. */
IMPACTFIT_EXPORT double impactfit_dem_sphere_mass(double r, double rho);
/* R and M of a contact (see the header comment; R_eff and M_eff when given). EINVAL for missing or
 * invalid radii/masses. */
IMPACTFIT_EXPORT int impactfit_dem_effective(const impactfit_dem_contact *c, double *R, double *M,
                                             impactfit_error *err);

/* The bodies as a user describes them (NaN: not given): the radius and density of both spheres
 * (radius, density), or of each (r1, r2, rho1, rho2), or masses instead of densities (m1, m2), or the
 * effective mass and radius directly (mass, reff, with none of the others). */
typedef struct impactfit_dem_bodies {
  int wall;                   /* sphere against a fixed flat wall: there is no second body */
  double radius, r1, r2;      /* m */
  double density, rho1, rho2; /* kg/m³ */
  double m1, m2;              /* kg */
  double mass, reff;          /* the effective mass (kg) and radius (m) */
} impactfit_dem_bodies;

/* Bodies with nothing given (every value NaN, two spheres). */
IMPACTFIT_EXPORT impactfit_dem_bodies impactfit_dem_bodies_default(void);
/* Sets the geometry, r1, r2, m1, m2, R_eff and M_eff of c from b: radius and density stand for both
 * bodies; the second sphere is the first unless given (a wall has none); without masses each is
 * (4/3) π r³ ρ. Which combinations a user may give is the front end's to say: here a given r1, rho1
 * wins over radius, density, and masses over densities; the radii and masses themselves are checked
 * by impactfit_dem_effective. Returns 0, or EINVAL when the masses come from densities that are
 * missing or not > 0. */
IMPACTFIT_EXPORT int impactfit_dem_bodies_contact(const impactfit_dem_bodies *b, impactfit_dem_contact *c,
                                                  impactfit_error *err);

/* One model of one code in a range of versions: a constant type object of the registry. */
typedef struct impactfit_dem_model {
  const char *code;                     /* "lammps", "liggghts", "yade", "chrono" */
  const char *model;                    /* the code's model, e.g. "granular hertz/material", "gran/hooke", "hertz" */
  const char *damping;                  /* the damping option where the model has several ("tsuji"), else "" */
  const char *versions;                 /* the versions this entry describes, as text of versions one can
                                           type: "29Sep2021 until 2Sep2026 (not included)", "3.8.0" */
  const char *first_version;            /* the first of them as one types it ("29Sep2021") */
  long version_min, version_max;        /* the same as keys (impactfit_dem_version_key); 0: open */
  double n, m;                          /* F = K δ^n + C δ^m δ' */
  const char *param;                    /* what the user types: "e", or the name of a damping constant */
  const char *param_unit;               /* its unit ("-" for e) */
  int takes_e;                          /* 1: the user's parameter is a restitution (the code converts it) */
  int needs_material;                   /* 1: K comes from E and ν; 0: from the code's stiffness kn */
  int clamp_default;                    /* 1: the force is clamped at zero unless the switch says otherwise */
  const char *clamp_switch;             /* the code's switch that clamps the force ("limit_damping"), NULL: none */
  int run_here;                         /* 1: run by tests/dem against the Debian 12 package for the versions
                                           run_versions (run_min .. run_max); 0: formula only */
  const char *run_versions;             /* the versions run here ("29Sep2021 update 2 (Debian 12)"), NULL */
  long run_min, run_max;                /* their keys */
  int default_damping;                  /* 1: the code's own default damping option of the model: the
                                           answer when none is given */
  const char *law;                      /* K, C and the conversion, in words and symbols */
  const char *source;                   /* file:line and version of the code's source that was read */
  const struct impactfit__dem_ops *ops; /* private */
} impactfit_dem_model;

/* The force clamps of a model an audit covers: its switch off and on (0, 1) when it has one
 * (clamp_switch), else its fixed behaviour (clamp_default). Writes them to clamps and returns their
 * number, 2 or 1 (0 for a NULL argument). */
IMPACTFIT_EXPORT int impactfit_dem_model_clamps(const impactfit_dem_model *md, int clamps[2]);

/* What a model's stiffness comes from, besides the bodies: the material (E and ν), the contact time
 * tc (YADE's ViscElMat(tc, en), whose stiffness is made for that time), or the code's stiffness
 * parameter kn (also the answer for a NULL md). */
typedef enum impactfit_dem_stiffness_input {
  IMPACTFIT_DEM_FROM_MATERIAL = 0,
  IMPACTFIT_DEM_FROM_TC = 1,
  IMPACTFIT_DEM_FROM_KN = 2
} impactfit_dem_stiffness_input;

IMPACTFIT_EXPORT impactfit_dem_stiffness_input impactfit_dem_model_stiffness_input(const impactfit_dem_model *md);

/* The unit of the stiffness kn a model takes ("Pa" for Hertz-type kn with F = kn √(Rδ) δ, "N/m" for a
 * linear spring), or NULL when the model takes a material (E, ν) instead. */
IMPACTFIT_EXPORT const char *impactfit_dem_kn_unit(const impactfit_dem_model *md);

/* The version key of a version string of a code: LAMMPS dates ("29Sep2021", "stable_29Sep2021_update2",
 * "2021-09-29", "20210929") give YYYYMMDD; dotted versions ("3.8.0", "2023.02a", "9.0.1") give
 * a·10⁴ + b·10² + c. Returns 0 for a string it cannot read. */
IMPACTFIT_EXPORT long impactfit_dem_version_key(const char *code, const char *version);
/* The version of each code that Debian 12 ships (the default when the user gives none). */
IMPACTFIT_EXPORT const char *impactfit_dem_default_version(const char *code);

IMPACTFIT_EXPORT size_t impactfit_dem_model_count(void);
IMPACTFIT_EXPORT const impactfit_dem_model *impactfit_dem_model_at(size_t i);
/* The entry for code, version (NULL: Debian 12's), model and damping (NULL or "": the model's only
 * or default option). Returns 0, or EINVAL with a message listing what is known (the codes, or the
 * models of the code, or the versions of the model). */
IMPACTFIT_EXPORT int impactfit_dem_model_find(const char *code, const char *version, const char *model,
                                              const char *damping, const impactfit_dem_model **out,
                                              impactfit_error *err);
/* The code's name as the registry spells it ("lammps" for "LAMMPS"), or NULL for an unknown code. */
IMPACTFIT_EXPORT const char *impactfit_dem_code_name(const char *code);
/* 1 when the answer of md for this version (NULL: Debian 12's) was run here (the version lies in
 * run_min .. run_max), 0 when it is formula only. */
IMPACTFIT_EXPORT int impactfit_dem_model_run_for(const impactfit_dem_model *md, const char *version);
/* 1 when the model's stiffness uses a characteristic velocity (LIGGGHTS and Chrono hooke: --vchar). */
IMPACTFIT_EXPORT int impactfit_dem_model_uses_vchar(const impactfit_dem_model *md);
/* The force law of a model as text, F = K d^n + C d^m d' with n and m filled in and the trivial
 * powers left out ("F = K d + C d'", "F = K d^1.5 + C d^0.25 d'"); buf of at least 64 bytes. */
IMPACTFIT_EXPORT const char *impactfit_dem_force_text(const impactfit_dem_model *md, char *buf, size_t size);

/* What the user asks. */
typedef struct impactfit_dem_request {
  const impactfit_dem_model *model;
  impactfit_dem_contact contact;
  int clamp;           /* -1: the code's default; 0: switch off; 1: switch on (EINVAL if the model has
                         no switch and the value differs from its fixed behaviour) */
  double e;            /* the asked restitution, (0, 1) */
  double v;            /* the design impact speed, m/s (> 0) */
  double v_min, v_max; /* the speed range to report over (v_min = v_max = v: one speed) */
  size_t range_points; /* speeds sampled log-uniformly over the range (default 0: 9) */
  double tol;          /* inverse solver tolerance (0: 1e-10) */
} impactfit_dem_request;

IMPACTFIT_EXPORT impactfit_dem_request impactfit_dem_default_request(void);

typedef struct impactfit_dem_answer {
  double K, R, M;                         /* the code's stiffness (N/m^n), effective radius (m) and mass (kg) */
  const impactfit_transition *transition; /* A or C */
  int speed_dependent;                    /* 1 unless m = (n − 1)/2 */
  int reachable;                   /* 1: `value` gives e at v; 0: no input of this model gives e (note says why) */
  double zeta;                     /* the exact scaled damping for e at v */
  double C;                        /* the damping coefficient the code must compute, N·s·m^-(m+1) */
  double value;                    /* the parameter to type (NaN when unreachable) */
  double e_naive;                  /* the e the code gives when e itself is typed (NaN: the model takes no e) */
  double e_naive_min, e_naive_max; /* the same over the speed range */
  double e_min, e_max;             /* the real e of `value` over the speed range */
  char input[1024];                /* the exact text to paste (empty when unreachable) */
  char note[1024];                 /* what the user must know */
} impactfit_dem_answer;

/* Solves the request: the exact input for e at v, what the naive input gives, the spread over the
 * speed range. Returns 0 (also when unreachable: answer.reachable = 0 with the reason in note),
 * EINVAL for invalid or missing inputs, or a numerical failure of the inverse solver. ws may be
 * NULL (allocated internally). */
IMPACTFIT_EXPORT int impactfit_dem_solve(impactfit_inverse_workspace *ws, const impactfit_dem_request *req,
                                         impactfit_dem_answer *ans, impactfit_error *err);

/* Another model of the same code and version range that reaches the asked e with the inputs the
 * request carries (a material, or kn): models exact at every speed first. Returns 0 with *alt and
 * alt_ans set, or ENOROOT when none does. */
IMPACTFIT_EXPORT int impactfit_dem_suggest(impactfit_inverse_workspace *ws, const impactfit_dem_request *req,
                                           const impactfit_dem_model **alt, impactfit_dem_answer *alt_ans,
                                           impactfit_error *err);

/* The real restitution a model gives for the parameter value `value` at speed v (the forward
 * problem): the prediction tests/dem compares with the real codes. */
IMPACTFIT_EXPORT int impactfit_dem_forward(const impactfit_dem_model *model, const impactfit_dem_contact *c, int clamp,
                                           double value, double v, double *e, impactfit_error *err);

/* The smallest and largest real e of `value` over `points` speeds spaced log-uniformly on [v_min, v_max]
 * (one speed when v_min = v_max, or when the model's e does not depend on the speed). */
IMPACTFIT_EXPORT int impactfit_dem_forward_range(const impactfit_dem_model *model, const impactfit_dem_contact *c,
                                                 int clamp, double value, double v_min, double v_max, size_t points,
                                                 double *e_min, double *e_max, impactfit_error *err);

/* The exact input text for `value` (as impactfit_dem_answer.input). */
IMPACTFIT_EXPORT int impactfit_dem_input(const impactfit_dem_model *model, const impactfit_dem_contact *c, int clamp,
                                         double value, char *buf, size_t size, impactfit_error *err);

/* The forward problem of a request (what `impactfit dem --value` reports): the real e of the typed
 * `value` at req->v, its smallest and largest over req's speed range (req->v alone when v_min and
 * v_max are NaN; req->range_points speeds, 0: 9), the exact input text and the end condition; the
 * characteristic velocity is req->v where the contact gives none. req->e is not used. Returns 0, or
 * the failure of impactfit_dem_forward or impactfit_dem_forward_range. */
typedef struct impactfit_dem_forward_answer {
  double value;                           /* the typed value */
  double v_min, v_max;                    /* the speed range used, m/s */
  double e;                               /* the real e at req->v */
  double e_min, e_max;                    /* the smallest and largest over the range */
  int speed_dependent;                    /* 1 unless m = (n − 1)/2: then e is the same at every speed */
  const impactfit_transition *transition; /* A or C: how the contact ends with req->clamp */
  char input[1024];                       /* the exact text to paste */
} impactfit_dem_forward_answer;

IMPACTFIT_EXPORT int impactfit_dem_forward_request(const impactfit_dem_request *req, double value,
                                                   impactfit_dem_forward_answer *ans, impactfit_error *err);

/* One point of impactfit_dem_grid: its index (x outer, v inner), the request solved (q->e or the
 * typed value, and q->v, set), its status and, when 0, the answer (forward mode: forward) — the
 * other pointer is NULL; err holds a failed point's message. Return non-zero to stop the grid. */
typedef int (*impactfit_dem_point_fn)(void *ctx, size_t index, const impactfit_dem_request *q, double value, int status,
                                      const impactfit_dem_answer *answer, const impactfit_dem_forward_answer *forward,
                                      const impactfit_error *err);

/* Every point of the grid x × v, x outer: x[0..nx) the asked restitutions (impactfit_dem_solve), or
 * with forward = 1 the typed values (impactfit_dem_forward_request); v[0..nv) the impact speeds; the
 * rest of the request as base. The points one after the other on the calling thread, in order, each
 * handed to fn, a failed one too (its status and message: the grid goes on). Returns 0, EINTR when fn
 * stopped it, or EINVAL for a NULL argument. The CLI's `impactfit dem --e 0.3,0.5 --v 1:4:4`. */
IMPACTFIT_EXPORT int impactfit_dem_grid(impactfit_inverse_workspace *ws, const impactfit_dem_request *base,
                                        const double *x, size_t nx, int forward, const double *v, size_t nv,
                                        impactfit_dem_point_fn fn, void *ctx, impactfit_error *err);

/* The audit of a restitution-taking model: the real e when e itself is typed, at `points` values equally
 * spaced on [e_min, e_max], with the force clamp `clamp` (-1: the code's default). The real e of these
 * models does not depend on the speed, the size or the material, except through the code's own
 * constants (the contact time of YADE's ViscElMat is irrelevant to e): the reference contact is two
 * equal spheres (R = 5 mm, ρ = 2500 kg/m³, E = 1e8 Pa, ν = 0.3) at 1 m/s. Values the code refuses
 * (LIGGGHTS: e <= 0.05) are counted in `refused`, not audited. EINVAL for a model that takes a
 * damping constant. */
typedef struct impactfit_dem_audit_result {
  double e_max_error; /* max |e_real − e| */
  double e_at_max;    /* the typed e where it occurs */
  double e_mean_error;
  size_t points, refused;
} impactfit_dem_audit_result;

IMPACTFIT_EXPORT int impactfit_dem_model_audit(const impactfit_dem_model *model, int clamp, double e_min, double e_max,
                                               size_t points, impactfit_dem_audit_result *res, impactfit_error *err);
/* The reference contact of the audit (see above), for the model's inputs. */
IMPACTFIT_EXPORT impactfit_dem_contact impactfit_dem_reference_contact(void);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_DEMCODES_H */
