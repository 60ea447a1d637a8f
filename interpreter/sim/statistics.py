"""Statistics for simulation reports, in pure Python (``math`` only): intervals, tests, summaries.

Every function is pure and works on plain numbers. Intervals are 95% by default (``Z95``).
Two-sided p-values throughout. The distributions needed for the p-values (normal, chi-square,
Student's t, binomial) are computed here from their definitions: the regularized incomplete
gamma and beta functions by their series and continued fractions.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054   # the standard normal's 97.5% quantile
EPSILON = 1e-15           # relative precision of the series and continued fractions
MAX_TERMS = 10_000        # terms of a series or continued fraction before giving up (never reached in practice)
TINY = 1e-300             # keeps the continued fractions away from division by zero
QUANTILES = {"p10": 0.10, "p25": 0.25, "median": 0.50, "p75": 0.75, "p90": 0.90}


@dataclass(frozen=True)
class Difference:
    """An estimated difference (second minus first), its interval and the p-value of "no difference".

    ``low``, ``high`` and ``p_value`` are None when the data cannot give them (too few games).
    """

    estimate: float
    low: float | None
    high: float | None
    p_value: float | None
    test: str


# ---------------------------------------------------------------- summaries

def mean(values: Sequence[float]) -> float:
    """The arithmetic mean; 0.0 for no values."""
    return math.fsum(values) / len(values) if values else 0.0


def variance(values: Sequence[float]) -> float:
    """The sample variance (divisor n - 1); 0.0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return math.fsum((v - m) ** 2 for v in values) / (len(values) - 1)


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of values sorted ascending, interpolated linearly between order
    statistics (Hyndman and Fan's type 7, the default of R and numpy); 0.0 for no values."""
    if not sorted_values:
        return 0.0
    h = (len(sorted_values) - 1) * q
    low = math.floor(h)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (h - low) * (sorted_values[high] - sorted_values[low])


def describe(values: Sequence[float]) -> dict[str, float]:
    """count, mean, standard deviation, min, p10, p25, median, p75, p90 and max of ``values``."""
    ordered = sorted(values)
    summary = {"count": float(len(ordered)), "mean": mean(ordered), "sd": math.sqrt(variance(ordered)),
               "min": ordered[0] if ordered else 0.0}
    summary.update({name: quantile(ordered, q) for name, q in QUANTILES.items()})
    summary["max"] = ordered[-1] if ordered else 0.0
    return summary


# ---------------------------------------------------------------- proportions

def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion; (0, 1) when there are no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    shrink = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / shrink
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / shrink
    return (max(0.0, centre - half), min(1.0, centre + half))


def binomial_log_pmf(k: int, n: int, p: float) -> float:
    """log P(X = k) for X ~ Binomial(n, p); -inf where the probability is 0."""
    if p <= 0.0 or p >= 1.0:
        certain = 0 if p <= 0.0 else n
        return 0.0 if k == certain else -math.inf
    return (math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
            + k * math.log(p) + (n - k) * math.log1p(-p))


def binomial_test(successes: int, trials: int, p: float) -> float:
    """Exact two-sided p-value of ``successes`` in ``trials`` under success probability ``p``:
    the total probability of every outcome no more likely than the one observed."""
    if trials <= 0:
        return 1.0
    observed = binomial_log_pmf(successes, trials, p)
    threshold = observed + math.log1p(1e-7)   # outcomes as likely as the observed one, up to rounding
    # Outcomes more than 40 standard deviations from the mean weigh less than e^-800: left out.
    spread = 40 * math.sqrt(trials * p * (1 - p)) + 10
    first, last = max(0, math.floor(trials * p - spread)), min(trials, math.ceil(trials * p + spread))
    total = math.fsum(math.exp(lp) for k in range(first, last + 1)
                      if (lp := binomial_log_pmf(k, trials, p)) <= threshold)
    return min(1.0, total)


def proportion_difference(successes_a: int, trials_a: int, successes_b: int, trials_b: int) -> Difference:
    """b's proportion minus a's: Newcombe's hybrid score interval (from the two Wilson intervals)
    and the pooled two-proportion z-test."""
    if trials_a <= 0 or trials_b <= 0:
        return Difference(0.0, None, None, None, "two-proportion z")
    pa, pb = successes_a / trials_a, successes_b / trials_b
    (la, ua), (lb, ub) = wilson_interval(successes_a, trials_a), wilson_interval(successes_b, trials_b)
    d = pb - pa
    low = d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2)
    high = d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)
    pooled = (successes_a + successes_b) / (trials_a + trials_b)
    se = math.sqrt(pooled * (1 - pooled) * (1 / trials_a + 1 / trials_b))
    p_value = 1.0 if se == 0 else normal_two_sided(d / se)
    return Difference(d, low, high, p_value, "two-proportion z")


# ---------------------------------------------------------------- goodness of fit, means

def chi_square_test(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, int, float]:
    """Pearson's goodness of fit: (statistic, degrees of freedom, p-value) of ``observed``
    counts against ``expected`` ones (categories expecting nothing are left out)."""
    pairs = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
    statistic = math.fsum((o - e) ** 2 / e for o, e in pairs)
    df = len(pairs) - 1
    return statistic, df, chi_square_sf(statistic, df) if df > 0 else 1.0


def mean_difference(a: Sequence[float], b: Sequence[float]) -> Difference:
    """b's mean minus a's with Welch's t interval and test (unequal variances)."""
    d = mean(b) - mean(a)
    if len(a) < 2 or len(b) < 2:
        return Difference(d, None, None, None, "Welch t")
    va, vb = variance(a) / len(a), variance(b) / len(b)
    se = math.sqrt(va + vb)
    if se == 0:
        return Difference(d, d, d, 1.0 if d == 0 else 0.0, "Welch t")
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    half = t_quantile(0.975, df) * se
    return Difference(d, d - half, d + half, t_two_sided(d / se, df), "Welch t")


# ---------------------------------------------------------------- distributions

def normal_two_sided(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2))


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X ~ chi-square with ``df`` degrees of freedom."""
    return 1.0 if x <= 0 else upper_gamma_regularized(df / 2, x / 2)


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for T ~ Student's t with ``df`` degrees of freedom."""
    return beta_regularized(df / (df + t * t), df / 2, 0.5)


def t_quantile(q: float, df: float) -> float:
    """The ``q`` quantile (0.5 < q < 1) of Student's t with ``df`` degrees of freedom, by bisection."""
    target = 2 * (1 - q)   # the two-sided tail probability at the quantile
    low, high = 0.0, 1.0
    while t_two_sided(high, df) > target:
        low, high = high, high * 2
    for _ in range(200):
        middle = (low + high) / 2
        if t_two_sided(middle, df) > target:
            low = middle
        else:
            high = middle
        if high - low <= 1e-12 * high:
            break
    return (low + high) / 2


def upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): a series for x < a + 1, else a continued fraction."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        return max(0.0, 1.0 - math.exp(log_front) * _lower_gamma_series(a, x))
    return math.exp(log_front) * _upper_gamma_fraction(a, x)


def _lower_gamma_series(a: float, x: float) -> float:
    """sum_n x^n / (a (a+1) ... (a+n)), so that P(a, x) = x^a e^-x / Γ(a) times it."""
    term = total = 1 / a
    for n in range(1, MAX_TERMS):
        term *= x / (a + n)
        total += term
        if abs(term) < abs(total) * EPSILON:
            break
    return total


def _upper_gamma_fraction(a: float, x: float) -> float:
    """The continued fraction 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / (x + 5 - a - ...))),
    evaluated by the modified Lentz method."""
    b = x + 1 - a
    c, d = 1 / TINY, 1 / b
    h = d
    for i in range(1, MAX_TERMS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = TINY if abs(d) < TINY else d
        c = b + an / c
        c = TINY if abs(c) < TINY else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < EPSILON:
            break
    return h


def beta_regularized(x: float, a: float, b: float) -> float:
    """I_x(a, b), the regularized incomplete beta function, by its continued fraction (on the
    side of the symmetry I_x(a, b) = 1 - I_(1-x)(b, a) where the fraction converges fast)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return math.exp(log_front) * _beta_fraction(x, a, b) / a
    return 1.0 - math.exp(log_front) * _beta_fraction(1 - x, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of I_x(a, b) (terms d_2m and d_2m+1), by the modified Lentz method."""
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (TINY if abs(d) < TINY else d)
    h = d
    for m in range(1, MAX_TERMS):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + numerator * d
            d = 1 / (TINY if abs(d) < TINY else d)
            c = 1 + numerator / c
            c = TINY if abs(c) < TINY else c
            h *= d * c
        if abs(d * c - 1) < EPSILON:
            break
    return h
