% IMPACTFIT_HC_EPS  Exact hysteresis damping ratio of the Hunt-Crossley model.
%
%   EPS = impactfit_hc_eps(E)
%   [EPS, LAMBDA] = impactfit_hc_eps(E, K, V)
%
%   EPS = LAMBDA V / K of f = K d^n + LAMBDA d^n d' that gives the coefficient of restitution E
%   (0 < E <= 1; E = 1 gives 0), from the exact relation (1 + EPS)/(1 - E EPS) = exp(EPS (1 + E)),
%   the same for every n, accurate to a few units of double rounding. With K (N/m^n) and V (m/s):
%   LAMBDA = EPS K / V in N*s/m^(n+1).
%
%   Vectorised as IMPACTFIT_COPT; the same values as `impactfit hc-eps --json`.
%
%   Example:  impactfit_hc_eps(0.5)   % 1.4328
%
%   See also IMPACTFIT_COPT, IMPACTFIT_SIMULATE.
