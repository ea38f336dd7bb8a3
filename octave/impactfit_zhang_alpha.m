% IMPACTFIT_ZHANG_ALPHA  Modification parameter alpha of Zhang et al. (2021), solved exactly.
%
%   ALPHA = impactfit_zhang_alpha(N, M, E)
%   [ALPHA, LAMBDA, LAMBDA_STAR, ZETA, E_OUT] = impactfit_zhang_alpha(N, M, E, K, MASS, V, ...
%                                                 'transition', X, 'method', METH, 'tol', T)
%
%   For the element f = K d^N + LAMBDA d^M d' with their Eq. (53),
%     LAMBDA = 3 MASS (M+1)(1-E) V / (4 ALPHA) * (E MASS (N+1) V^2 / (2K))^(-(M+1)/(N+1)),
%   ALPHA such that a simulated impact gives e_out = E. ALPHA (dimensionless) depends on N, M, E and
%   the transition condition only; LAMBDA (N*s/m^(M+1)) needs K (N/m^N), MASS (kg) and V (m/s), all
%   three (NaN without them).
%
%   N  spring exponent (> 0);  M  damping exponent (>= 0);  E  restitution, 0 < E < 1
%   'transition'  'C' (contact ends at zero force, default), 'A' (at d = 0), 'B', 'D'
%   'method'      'fast' (default), 'bisect' (the reference, from its own bracket), 'nlopt'
%   'tol'         |e_out - e| <= T min(e, 1 - e), default 1e-10
%
%   LAMBDA_STAR is their scaled damping 3(1-E)(M+1)/(4 ALPHA), ZETA impactfit's scaled damping,
%   E_OUT the simulated restitution. Vectorised as IMPACTFIT_COPT; the same values as
%   `impactfit zhang-alpha --json` (with at most four outputs found with less work, as IMPACTFIT_COPT). Under 'A' with M < N and strong damping no alpha exists: error
%   impactfit:numericalFailure.
%
%   Example:  [a, lam] = impactfit_zhang_alpha(1.5, 0.25, 0.5, 1e8, 0.05, 2)
%
%   See also IMPACTFIT_COPT, IMPACTFIT_SIMULATE.
