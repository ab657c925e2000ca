"""Exact tails for the statistical checks of the integration tests (issue 27:
a check states its interval and the chance that a correct build fails it).
Used by tests/lib/tpcc.sh and tests/lib/oracle.py."""
import math


def binom_tails(k, n, p):
    """P(X <= k) and P(X >= k) for X ~ Binomial(n, p)."""
    def lp(x):
        return (math.lgamma(n + 1) - math.lgamma(x + 1) - math.lgamma(n - x + 1) + x * math.log(p) +
                (n - x) * math.log1p(-p))
    return (sum(math.exp(lp(x)) for x in range(0, min(k, n) + 1)),
            sum(math.exp(lp(x)) for x in range(max(k, 0), n + 1)))


def poisson_sf(k, lam):
    """P(X >= k) for X ~ Poisson(lam), k > lam: the terms fall from k on, summed until negligible."""
    if lam <= 0:
        return 0.0 if k > 0 else 1.0
    term = math.exp(-lam + k * math.log(lam) - math.lgamma(k + 1))
    tot, j = 0.0, k
    while term > tot * 1e-17 and j < k + 100 + 40 * math.sqrt(lam):
        tot += term
        j += 1
        term *= lam / j
    return tot
