% IMPACTFIT_ENGINE  The exact contact input for a multibody or robotics engine at your time step.
%
%   R = impactfit_engine(CODE, 'e', E, 'v', V, 'mass', KG, 'name', value, ...)
%   R = impactfit_engine(CODE, 'value', X, 'v', V, 'mass', KG, ...)   % the e that X gives
%   R = impactfit_engine(CODE, 'v', V, 'mass', KG, ...)               % the e of the settings as they are
%
%   impactfit knows, per engine (CODE: 'mujoco', 'simbody', 'ode', 'bullet', 'chrono'), version and
%   contact model, the contact law the engine's source computes and the engine's own one-step map
%   (the registry: `impactfit engine --list`). At the time steps people run, e depends on where the
%   first contact step falls; R gives the mean of e over that phase (an impact from a random
%   height), one impact's range and the continuous-time e. With 'e' it solves for the model's free
%   parameter (MuJoCo: solref's dampratio) whose mean e is E at the step dt.
%
%   Options (name/value pairs):
%     'e', E            the restitution you want, 0 < E < 1
%     'value', X        instead of 'e': the e that the free parameter's value X gives
%     'v', V            the impact speed (m/s), required
%     'mass', KG        the sphere's mass (kg); or 'density', RHO (kg/m^3) with 'radius'
%     'radius', R       the sphere's radius (m; default 0.005)
%     'm2', KG, 'r2', R a second sphere (sphere-sphere; default: a sphere on a fixed plane)
%     'model', S        the engine's contact model (default: its first)
%     'version', S      the engine's version (default: Debian 12's)
%     'integrator', S   the engine's integrator (default: the engine's default)
%     'dt', S           the time step (s; default: the engine's default; Chrono has none: give it;
%                       none for an adaptive integrator, all of Simbody's: dt is then NaN)
%     'settings', ST    the model's settings in the engine's own names, e.g.
%                       struct('solref', [0.02 1], 'solimp', [0.9 0.95 0.001 0.5 2])
%
%   R is a struct with the fields of `impactfit engine --json`: value (the free parameter's value,
%   NaN when unreachable), input (the text to paste), e_mean, e_min, e_max, e_continuous, naive,
%   naive_value, e_naive, e_naive_range, reachable, e_reach_range, stable, dt_stable, end, note,
%   code, version, model, integrator, dt, v, mass, e_asked, param, run_here, source.
%   Errors: impactfit:invalidInput (an unknown engine, model, integrator or setting: the message
%   lists what is known), impactfit:numericalFailure.
%
%   Example:
%     r = impactfit_engine('mujoco', 'e', 0.5, 'v', 1, 'mass', 0.001309);
%     disp(r.input)
%
%   See also IMPACTFIT_DEM.
