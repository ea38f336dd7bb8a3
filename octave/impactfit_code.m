% IMPACTFIT_CODE  The exact input that makes a real code (DEM code or multibody engine) give the
% restitution you ask for.
%
%   R = impactfit_code(CODE, MODEL, E, V, 'name', value, ...)
%   R = impactfit_code(CODE, MODEL, [], V, 'value', X, ...)         % the forward problem
%   R = impactfit_code(CODE, 'e', E, 'v', V, 'name', value, ...)    % every input by name
%
%   impactfit knows, per code, version and model, the contact law the code's source computes and,
%   for the engines, the code's own one-step map at the step dt you run (the registry: `impactfit
%   dem --list`). It solves for the model's free parameter that gives the restitution E (0 < E < 1)
%   at the impact speed V (m/s) and writes the text to paste into the code's input. With 'value'
%   instead of E: the e the code gives for a typed value; for an engine with neither: the e of the
%   settings as they are. impactfit_dem and impactfit_engine are this function.
%
%   CODE: 'lammps', 'liggghts', 'yade', 'chrono', 'mujoco', 'simbody', 'ode', 'bullet'. MODEL: the
%   code's model ('granular hertz/material', 'gran/hertz/history', 'hertz', 'soft contact', ...;
%   'model', S by name; the code's default when not given, where it has one). An unknown code,
%   version, model, option, integrator or setting is an error (impactfit:invalidInput) listing what
%   is known.
%
%   Options (name/value pairs, names case-insensitive):
%     'version', S       the code's version (default: the code's default, `impactfit dem --list`)
%     'damping', S       the model's option where it has several ('tsuji', 'en', 'gn'); or 'option'
%     'integrator', S    the engine's integrator; 'dt', S the step (s; default: the model's)
%     'limit', 'on'|'off'|true|false   the code's force clamp (LAMMPS limit_damping, LIGGGHTS
%                        limitForce); default: the code's default
%     bodies: a sphere on a fixed wall (the default of every code):
%     'radius', R or 'r1'; 'density', RHO or 'rho1' (kg/m^3) or 'mass', KG or 'm1'
%     'pair', true       two equal spheres; any of 'r2', 'rho2', 'm2': two spheres (body 2's values
%                        default to body 1's); 'wall', true says the wall explicitly
%     'meff', KG, 'reff', M   the effective mass and radius directly
%     the model's settings by their names: one-value ones vectorised ('E', PA, 'nu', NU, 'kn', KN,
%     'tc', S, 'vchar', V, 'kp', 'kd', ...), several-value ones the same for every point
%     ('solref', [0.02 1]); or 'settings', struct('solref', [0.02 1], 'E', [7e10 2e11]) (a per-body
%     setting's values for both bodies)
%     'v_range', [VMIN VMAX], 'points', N   the speeds to report over (scalar calls)
%     'radius_range', [RMIN RMAX]   a size range (m; scalar calls; the CLI's --radius-range): the
%                        value is solved at the design radius; R.spread gives the e it makes over
%                        every radius in the range (each sphere of a pair, the sphere on a wall) and
%                        every speed of v_range: r_range, v_range, bodies, points (per axis, 2..64,
%                        default 5), evaluations, e_min, e_max, where.e_min and where.e_max ([r1 r2
%                        v]), corners (a struct array r1, r2, v, e), worst (largest |e - E|), exact
%                        (1: e_max - e_min <= 1e-9, measured); when not exact, R.exact_model (another
%                        model of the code exact over the ranges: model, damping, param, value,
%                        input, end, e_range, worst, note; or []) and, without one, R.exact_other
%                        (model, damping, param of a model exact with its own inputs; or []). A
%                        continuous-time answer with v_range alone gets R.spread too (r_range [])
%
%   The numeric inputs (E, V, 'value', 'dt', the bodies and the one-value settings) are vectorised:
%   the non-scalar ones must have the same number of elements; the fields take the shape of the
%   first of them.
%
%   R is a struct. A scalar call: the fields of `impactfit dem/engine ... --json` for the answer's
%   kind (R.kind: 'power' (continuous time: value, input, note, e_naive, reachable, K, C, zeta, R, M,
%   ... and, when E is out of reach, alternative: [] or a struct of another model of the same code
%   that reaches E), 'forward' (value, e_real, input, R, M, ...) or 'steps' (an engine at its step:
%   value, input, e_mean, e_min, e_max, e_continuous, naive, e_naive, reachable, stable, dt_stable,
%   note, ...; range: the rows [v e_mean e_min e_max e_continuous] of a speed range)). An array call:
%   the numbers only: power: value, e_naive, reachable, zeta, C, K, R, M; forward: value, e_real, R,
%   M; steps: value, e_mean, e_min, e_max, e_continuous, naive_value, e_naive, e_naive_min,
%   e_naive_max, reachable, e_reach_min, e_reach_max, stable, dt_stable, dt, mass.
%
%   Examples:
%     r = impactfit_code('lammps', 'granular hertz/material', 0.5, 1, 'damping', 'tsuji', ...
%                        'E', 1e8, 'nu', 0.3, 'radius', 0.005, 'density', 2500, 'pair', true);
%     r.value   % 0.36665: type this instead of e = 0.5
%     r = impactfit_code('mujoco', 'e', 0.5, 'v', 1, 'mass', 0.001309, 'radius', 0.005);
%     disp(r.input)
%
%   See also IMPACTFIT_DEM, IMPACTFIT_ENGINE, IMPACTFIT_COPT.
