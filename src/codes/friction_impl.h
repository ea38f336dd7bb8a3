/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal to the engine entries of the code registry (src/codes/<engine>.c; docs/SCENE.md "Friction"): the
 * friction settings an engine's paste text keeps. The normal response of a head-on impact does not depend on
 * them in these engines (measured bit for bit in ODE 0.16.2, Bullet 3.24 and DART 6.12.1: tests/engines/
 * ode_scene.c, bullet_scene.cpp, dart_scene.cpp; read from the solver for the others: with no tangential
 * motion the friction rows carry no impulse), so an answer never sets them: the user's value comes back
 * when typed, else the text carries a marked placeholder "<yours: NAME>" where the code needs a value in
 * that place (ODE's contact.surface.mu, PhysX's createMaterial) or leaves the user's own setting alone.
 * MuJoCo's pyramidal cone is the exception (src/codes/mujoco.c): there the answer is computed for them.
 * Header-only (static inline), shared by the engine files. */
#ifndef IMPACTFIT_CODES_FRICTION_IMPL_H
#define IMPACTFIT_CODES_FRICTION_IMPL_H

#include <math.h>

#include "../common/common_impl.h"
#include "codes_impl.h"

/* A friction setting of an engine: its default def_ is the code's own (not read by the normal law; the paste
 * text shows it only when the user types a value). */
#define IMPACTFIT__IN_FRICTION(name_, help_, def_)                                                                  \
  {                                                                                                                 \
    .name = name_, .unit = "-",                                                                                     \
    .help = help_ " (yours: the answer keeps it in the pasted text; the head-on normal response does not read it)", \
    .count = 1, .def = {                                                                                            \
      def_                                                                                                          \
    }                                                                                                               \
  }

/* The value of friction input `name` as the paste text shows it: the user's ("%.12g") when given, else the
 * placeholder "<yours: NAME>" (`name` NULL-safe: a model without the input gets the placeholder too). */
static inline void impactfit__friction_value(const impactfit_code_ctx *c, const char *name, impactfit_text *out) {
  const double *v = impactfit_code_value(c, name);
  if (v && impactfit_code_given(c, name))
    impactfit_text_appendf(out, "%.12g", v[0]);
  else
    impactfit_text_appendf(out, "<yours: %s>", name);
}

/* 1 when the user typed friction input `name` */
static inline int impactfit__friction_given(const impactfit_code_ctx *c, const char *name) {
  return impactfit_code_value(c, name) && impactfit_code_given(c, name);
}

/* The note's sentence on the friction settings `names` ("mu", "friction", ...): kept as typed or the user's
 * own, and why the answer does not depend on them; `measured`: where that was measured (NULL: from the
 * solver only). */
static inline void impactfit__friction_note(const impactfit_code_ctx *c, const char *names, const char *measured,
                                            impactfit_text *out) {
  (void)c;
  impactfit_text_appendf(out,
                         "Friction (%s) is yours: the text above keeps the value you typed, or leaves yours (a "
                         "<yours: ...> placeholder where the call needs one); the head-on normal response does not "
                         "depend on it (%s). ",
                         names,
                         measured ? measured
                                  : "from the solver: with no tangential motion the friction rows carry no impulse; "
                                    "not measured here");
}

#endif
