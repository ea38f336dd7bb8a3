/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every call of the DEM and engine registries in the WebAssembly module (demcodes.h, engines.h):
 * the listing the page builds its forms from (impactfit_wasm_registry: every code and every model,
 * iterated through the registries' public list functions, so that a new entry appears on the page
 * without editing it), the lookup of the entry a code, version and model name
 * (impactfit_wasm_lookup, with the registry's own message when there is none), and the stepper an
 * engine runs for a request, for the pictures (curves.c). When the registries become one
 * (include/impactfit/codes.h), this file is the one to adapt. */
#define _GNU_SOURCE /* strdup */
#include <emscripten.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "wasm.h"

static const char *stiffness_name(impactfit_dem_stiffness_input s) {
  return s == IMPACTFIT_DEM_FROM_MATERIAL ? "material" : s == IMPACTFIT_DEM_FROM_TC ? "tc" : "kn";
}

static void dem_entry(wasm_json *j, size_t i, const impactfit_dem_model *md) {
  char force[128];
  int clamps[2];
  int nclamps = impactfit_dem_model_clamps(md, clamps);
  wasm_json_key(j, NULL);
  wasm_json_begin(j, '{');
  wasm_json_int(j, "index", (long)i);
  wasm_json_str(j, "code", md->code);
  wasm_json_str(j, "model", md->model);
  wasm_json_str(j, "damping", md->damping);
  wasm_json_int(j, "default_damping", md->default_damping);
  wasm_json_str(j, "versions", md->versions);
  wasm_json_str(j, "first_version", md->first_version);
  wasm_json_str(j, "param", md->param);
  wasm_json_str(j, "param_unit", md->param_unit);
  wasm_json_int(j, "takes_e", md->takes_e);
  wasm_json_str(j, "stiffness", stiffness_name(impactfit_dem_model_stiffness_input(md)));
  wasm_json_str(j, "kn_unit", impactfit_dem_kn_unit(md) ? impactfit_dem_kn_unit(md) : "");
  wasm_json_int(j, "vchar", impactfit_dem_model_uses_vchar(md));
  wasm_json_str(j, "clamp_switch", md->clamp_switch ? md->clamp_switch : "");
  wasm_json_int(j, "clamp_default", md->clamp_default);
  wasm_json_int(j, "clamps", nclamps);
  wasm_json_int(j, "run_here", md->run_here);
  wasm_json_str(j, "run_versions", md->run_versions ? md->run_versions : "");
  wasm_json_str(j, "force", impactfit_dem_force_text(md, force, sizeof force));
  wasm_json_str(j, "law", md->law);
  wasm_json_str(j, "source", md->source);
  wasm_json_end(j, '}');
}

static void engine_entry(wasm_json *j, size_t i, const impactfit_engine_model *md) {
  wasm_json_key(j, NULL);
  wasm_json_begin(j, '{');
  wasm_json_int(j, "index", (long)i);
  wasm_json_str(j, "code", md->code);
  wasm_json_str(j, "model", md->model);
  wasm_json_str(j, "versions", md->versions);
  wasm_json_int(j, "version_min", md->version_min); /* a·10⁶ + b·10³ + c; 0: open */
  wasm_json_int(j, "version_max", md->version_max);
  wasm_json_str(j, "param", md->param);
  wasm_json_str(j, "param_unit", md->param_unit);
  wasm_json_str(j, "param_input", md->param_input);
  wasm_json_int(j, "param_index", md->param_index);
  wasm_json_str(j, "integrators", md->integrators);
  wasm_json_str(j, "adaptive", md->adaptive ? md->adaptive : "");
  wasm_json_num(j, "dt_default", md->dt_default > 0.0 ? md->dt_default : NAN);
  wasm_json_int(j, "run_here", md->run_here);
  wasm_json_str(j, "law", md->law);
  wasm_json_str(j, "end", md->end);
  wasm_json_str(j, "bodies", md->bodies);
  wasm_json_str(j, "traps", md->traps);
  wasm_json_str(j, "source", md->source);
  wasm_json_key(j, "inputs");
  wasm_json_begin(j, '[');
  for (int k = 0; k < md->n_inputs; k++) {
    const impactfit_engine_input *in = &md->inputs[k];
    wasm_json_key(j, NULL);
    wasm_json_begin(j, '{');
    wasm_json_str(j, "name", in->name);
    wasm_json_str(j, "unit", in->unit);
    wasm_json_str(j, "help", in->help);
    wasm_json_int(j, "count", in->count);
    wasm_json_key(j, "def"); /* null: required */
    wasm_json_begin(j, '[');
    for (int c = 0; c < in->count; c++)
      wasm_json_num(j, NULL, in->def[c]);
    wasm_json_end(j, ']');
    wasm_json_end(j, '}');
  }
  wasm_json_end(j, ']');
  wasm_json_end(j, '}');
}

EMSCRIPTEN_KEEPALIVE char *impactfit_wasm_registry(void) {
  wasm_json j;
  if (wasm_json_open(&j))
    return NULL;
  wasm_json_begin(&j, '{');
  wasm_json_key(&j, "codes");
  wasm_json_begin(&j, '[');
  for (size_t i = 0; i < impactfit_codes_count(); i++) {
    const char *code, *kind, *version;
    if (impactfit_codes_at(i, &code, &kind, &version))
      continue;
    wasm_json_key(&j, NULL);
    wasm_json_begin(&j, '{');
    wasm_json_str(&j, "code", code);
    wasm_json_str(&j, "kind", kind);
    wasm_json_str(&j, "version", version ? version : "");
    wasm_json_end(&j, '}');
  }
  wasm_json_end(&j, ']');
  wasm_json_key(&j, "dem");
  wasm_json_begin(&j, '[');
  for (size_t i = 0; i < impactfit_dem_model_count(); i++)
    dem_entry(&j, i, impactfit_dem_model_at(i));
  wasm_json_end(&j, ']');
  wasm_json_key(&j, "engine");
  wasm_json_begin(&j, '[');
  for (size_t i = 0; i < impactfit_engine_model_count(); i++)
    engine_entry(&j, i, impactfit_engine_model_at(i));
  wasm_json_end(&j, ']');
  wasm_json_end(&j, '}');
  return wasm_json_close(&j);
}

/* the value of "key=..." among newline-separated lines (NULL: absent; an empty value is absent too) */
static const char *field(char **lines, int n, const char *key) {
  size_t len = strlen(key);
  for (int i = 0; i < n; i++)
    if (strncmp(lines[i], key, len) == 0 && lines[i][len] == '=')
      return lines[i][len + 1] ? lines[i] + len + 1 : NULL;
  return NULL;
}

static int split_lines(char *copy, char **lines, int max) {
  int n = 0;
  for (char *p = copy; p && *p && n < max;) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    lines[n++] = p;
    p = nl ? nl + 1 : NULL;
  }
  return n;
}

enum { MAX_LINES = 64 };

/* "dem" or "engine", code, version (empty: the default), model and, for a DEM code, damping:
 * {"ok":1,"kind":...,"index":I,"version":V} or the registry's message */
EMSCRIPTEN_KEEPALIVE char *impactfit_wasm_lookup(const char *words) {
  char *copy = strdup(words ? words : "");
  if (!copy)
    return NULL;
  char *lines[MAX_LINES];
  int n = split_lines(copy, lines, MAX_LINES);
  const char *kind = field(lines, n, "kind"), *code = field(lines, n, "code"), *version = field(lines, n, "version");
  const char *model = field(lines, n, "model"), *damping = field(lines, n, "damping");
  impactfit_error err;
  impactfit_error_clear(&err);
  long index = -1;
  int st = IMPACTFIT_EINVAL;
  const char *used = version;
  if (kind && strcmp(kind, "dem") == 0) {
    const impactfit_dem_model *md = NULL;
    st = impactfit_dem_model_find(code ? code : "", version, model ? model : "", damping, &md, &err);
    for (size_t i = 0; !st && i < impactfit_dem_model_count(); i++)
      if (impactfit_dem_model_at(i) == md)
        index = (long)i;
    if (!used && code)
      used = impactfit_dem_default_version(impactfit_dem_code_name(code));
  } else if (kind && strcmp(kind, "engine") == 0) {
    const impactfit_engine_model *md = NULL;
    st = impactfit_engine_model_find(code ? code : "", version, model, &md, &err);
    for (size_t i = 0; !st && i < impactfit_engine_model_count(); i++)
      if (impactfit_engine_model_at(i) == md)
        index = (long)i;
    if (!used && !st)
      used = impactfit_engine_default_version(md->code);
  } else {
    snprintf(err.message, sizeof err.message, "lookup: kind must be dem or engine");
  }
  char *out = NULL;
  if (st || index < 0) {
    out = wasm_json_error(st ? st : IMPACTFIT_EINVAL, err.message);
  } else {
    wasm_json j;
    if (!wasm_json_open(&j)) {
      wasm_json_begin(&j, '{');
      wasm_json_int(&j, "ok", 1);
      wasm_json_str(&j, "kind", kind);
      wasm_json_int(&j, "index", index);
      wasm_json_str(&j, "version", used ? used : "");
      wasm_json_end(&j, '}');
      out = wasm_json_close(&j);
    }
  }
  free(copy);
  return out;
}

/* "V1,V2,..." into a setting (the values only; the CLI has checked the same text already) */
static int parse_values(const char *name, const char *text, impactfit_engine_setting *s, impactfit_error *err) {
  s->name = name;
  s->count = 0;
  for (const char *p = text; *p;) {
    char *end;
    if (s->count == IMPACTFIT_ENGINE_MAX_VALUES)
      return snprintf(err->message, sizeof err->message, "--%s: too many values", name), IMPACTFIT_EINVAL;
    s->values[s->count++] = strtod(p, &end);
    if (end == p || (*end && *end != ','))
      return snprintf(err->message, sizeof err->message, "--%s: expected numbers (got '%s')", name, text),
             IMPACTFIT_EINVAL;
    p = *end ? end + 1 : end;
  }
  return 0;
}

static double num(char **lines, int n, const char *key) {
  const char *t = field(lines, n, key);
  return t ? strtod(t, NULL) : NAN;
}

int impactfit__wasm_engine_stepper(const char *words, impactfit_stepper *st, double *v, impactfit_error *err) {
  impactfit_error_clear(err);
  char *copy = strdup(words ? words : "");
  if (!copy)
    return IMPACTFIT_ENOMEM;
  char *lines[MAX_LINES];
  int n = split_lines(copy, lines, MAX_LINES);
  const impactfit_engine_model *md = NULL;
  int rc = impactfit_engine_model_find(field(lines, n, "code") ? field(lines, n, "code") : "",
                                       field(lines, n, "version"), field(lines, n, "model"), &md, err);
  impactfit_engine_request q = impactfit_engine_default_request();
  q.model = md;
  q.integrator = field(lines, n, "integrator");
  q.dt = num(lines, n, "dt");
  q.v = num(lines, n, "v");
  q.bodies.m1 = num(lines, n, "mass");
  if (!isnan(num(lines, n, "radius")))
    q.bodies.r1 = num(lines, n, "radius");
  double m2 = num(lines, n, "m2"), r2 = num(lines, n, "r2");
  if (!isnan(m2) || !isnan(r2)) { /* as impactfit engine: a second sphere like the first unless given */
    q.bodies.plane = 0;
    q.bodies.r2 = isnan(r2) ? q.bodies.r1 : r2;
    q.bodies.m2 = isnan(m2) ? q.bodies.m1 : m2;
  }
  for (int i = 0; !rc && i < n; i++) {
    if (strncmp(lines[i], "set=", 4) != 0)
      continue;
    char *eq = strchr(lines[i] + 4, '=');
    if (!eq || q.n_settings == IMPACTFIT_ENGINE_MAX_SETTINGS) {
      snprintf(err->message, sizeof err->message, "set: expected NAME=V1,V2,... (got '%s')", lines[i] + 4);
      rc = IMPACTFIT_EINVAL;
      break;
    }
    *eq = '\0';
    rc = parse_values(lines[i] + 4, eq + 1, &q.settings[q.n_settings++], err);
  }
  double value = num(lines, n, "value");
  if (!rc)
    rc = impactfit_engine_stepper(&q, value, st, err);
  *v = q.v;
  free(copy);
  return rc;
}

/* 1 when the stepper takes no fixed steps (the law integrated exactly: an adaptive integrator). Today a
 * type with `adaptive` set; with codes.h a NULL type. */
int impactfit__wasm_stepper_continuous(const impactfit_stepper *st) { return st->type->adaptive != 0; }
