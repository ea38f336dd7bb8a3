/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internals of the impact engine shared with the inverse solvers (not installed). */
#ifndef IMPACTFIT_IMPACT_IMPL_H
#define IMPACTFIT_IMPACT_IMPL_H

#include <gsl/gsl_odeiv2.h>
#include <gsl/gsl_roots.h>

#include "impactfit/impact.h"
#include "series.h"

/* Scaled problem: x'' = γ − K s(x) − ζ a(x) x', with s(x) = sgn(x)|x|^n, a(x) = |x|^m. */
typedef struct impactfit__sys {
  double n, m, K, zeta, gamma;
  double hscale; /* the end phase's fourth state is h / hscale, h = f/|x|^m (impact.c, "the end phase") */
  long nevals;
  int n_kind, m_kind;              /* how |x|^n and |x|^m are computed (impact.c, powers()), set with n and m */
  double memo_x, memo_pn, memo_pm; /* |x|^n and |x|^m of the last right-hand side's x (NaN: none) */
} impactfit__sys;

typedef struct impactfit__sample_hook {
  const double *times; /* scaled sample times, increasing */
  size_t count, next;
  double t_end; /* samples beyond the last contact are free flight */
  impactfit_trace_fn fn;
  void *ctx;
  double delta_m0, time_scale, force_scale;
  int status; /* non-zero once fn asked to stop */
} impactfit__sample_hook;

struct impactfit_impact_workspace {
  gsl_odeiv2_step *step, *step4; /* the state (x, x', W); with the end phase's h (impact.c) */
  gsl_odeiv2_control *control;
  gsl_odeiv2_evolve *evolve, *evolve4;
  gsl_root_fsolver *brent;
  size_t arr_term;   /* try_arrival: the top term that set the last series radius (a cheap bound, series.h) */
  double arr_log[4]; /* try_arrival: ln K, ln zeta, ln gamma, ln of the series tolerance (set by a solve) */
  gsl_odeiv2_system gsys, gsys4;
  impactfit__sys sys;
  impactfit__series *ser2; /* without γ terms */
  impactfit__series *ser3; /* with γ terms */
  impactfit__series *ser;  /* the one in use */
  double ctrl_tol;         /* tolerance the control object was set up with */
  impactfit__sample_hook *hook;
  int n_contacts;
  impactfit_contact contacts[IMPACTFIT_MAX_CONTACTS]; /* scaled until the end of a solve */
};

#endif
