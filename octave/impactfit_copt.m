% IMPACTFIT_COPT  Optimal damping coefficient c_opt of Poursina & Nikravesh (2020), solved exactly.
%
%   C = impactfit_copt(N, E, K, MASS, V)
%   [C, ZETA, E_OUT, DELTA_SEP, T_CONTACT] = impactfit_copt(N, E, K, MASS, V, 'method', M, 'tol', T)
%
%   For the Hertz spring with a linear damper, MASS d'' + C d' + K d^N = 0, d(0) = 0, d'(0) = V,
%   separating where the contact force falls to zero (condition C): the C (N*s/m) whose simulated
%   restitution is E to |e_out - E| <= T*min(E, 1 - E).
%
%   N     spring exponent (> 0)
%   E     target coefficient of restitution, 0 < E <= 1 (E = 1 gives 0)
%   K     stiffness, N/m^N
%   MASS  effective mass, kg
%   V     approach velocity, m/s: K, MASS, V all three or none (none: 1 each, the scaled
%         problem; a part is refused, as in the CLI and Python)
%   'method'  'fast' (default), 'bisect' (the paper's; the reference, from its own bracket,
%             ignoring every guess) or 'nlopt'
%   'tol'     |e_out - e| <= T min(e, 1 - e), default 1e-10 (1e-13 <= T < 0.1)
%
%   ZETA is the scaled damping (C = ZETA*MASS*V/delta_m0, delta_m0 = ((N+1)*MASS*V^2/(2*K))^(1/(N+1))),
%   E_OUT the restitution of the simulation with C, DELTA_SEP the penetration at separation (m),
%   T_CONTACT the contact duration (s). With at most two outputs, C and ZETA are the same doubles, found
%   with less work (no simulation at the engine's tolerance for an E_OUT not asked for).
%
%   Vectorised: non-scalar arguments must have the same number of elements (the outputs take the
%   shape of the first); scalars are expanded. The elements are solved in parallel (OpenMP; set
%   OMP_NUM_THREADS before starting Octave to limit the threads), each on its own: the values are
%   those of `impactfit copt --json` to the last digit.
%   Errors: identifier impactfit:invalidInput for bad input, impactfit:numericalFailure when no
%   solution is found (the message names the first failing element).
%
%   Example:  impactfit_copt(1.5, 0.7, 1e8, 0.05, 2)   % 66.2789 N*s/m
%
%   See also IMPACTFIT_ZHANG_ALPHA, IMPACTFIT_SIMULATE, IMPACTFIT_HC_EPS.
