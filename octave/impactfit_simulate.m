% IMPACTFIT_SIMULATE  One direct central impact through a continuous contact element.
%
%   R = impactfit_simulate(N, C, M, K, MASS, V, ACCEL, 'transition', X, 'contacts', NC, ...
%                          't_max', T, 'rtol', RT)
%
%   Simulates MASS d'' + K d^N + C d^M d' = MASS*ACCEL, d(0) = 0, d'(0) = V.
%
%   N      spring exponent (> 0)
%   C      damping coefficient (>= 0), N*s/m^(M+1) (lambda for Hunt-Crossley, M = N)
%   M      damping exponent (>= 0), default 0
%   K      stiffness, N/m^N;   MASS  effective mass, kg;   V  approach velocity, m/s (> 0):
%          all three or none (none: 1 each; a part is refused, as in the CLI and Python)
%   ACCEL  m/s^2 (>= 0), default 0
%   'transition'  'A' (contact while d > 0), 'B' (while the force is positive), 'C' (default:
%                 starts at d = 0, ends at zero force), 'D' (as C, the element then relaxes)
%   'contacts'    bounces to follow, default 1 (> 1 needs ACCEL > 0)
%   't_max'       time bound in units of delta_m0/V (default 0: automatic); 'rtol' default 1e-13
%
%   R is a struct of arrays (the shape of the first non-scalar argument): e_out (restitution),
%   t_contact (s), f_max (N), t_fmax (s), f_min (N), delta_max (m), t_delta_max (s), delta_start (m),
%   delta_sep (m), f_start, f_end (N), damping_work (J), energy_error, zeta, gamma, delta_m0 (m),
%   rhs_evals, steps, n_contacts. The same values as `impactfit simulate --json`.
%   Vectorised and parallel as IMPACTFIT_COPT; errors impactfit:invalidInput and
%   impactfit:numericalFailure (e.g. no separation within the time bound).
%
%   Example:  r = impactfit_simulate(1.5, 66.2789, 0, 1e8, 0.05, 2); r.e_out   % 0.7
%
%   See also IMPACTFIT_COPT, IMPACTFIT_ZHANG_ALPHA.
