r"""Frequencies with confidence intervals, and threshold fits of probability curves.

* :func:`clopper_pearson` -- exact two-sided binomial interval (beta quantiles): the
  interval used to compare an estimated probability with a bound.
* :func:`wilson` -- Wilson score interval (approximate, never outside [0, 1]).
* :func:`fit_sigmoid` -- least-squares logistic curve :math:`P(n)=1/(1+e^{(n-N)/w})`
  through measured frequencies; ``N`` is the convergence threshold of dana2025 Fig. 3.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.optimize import OptimizeWarning, curve_fit
from scipy.stats import beta, norm


def clopper_pearson(k, n, conf: float = 0.99) -> tuple[np.ndarray, np.ndarray]:
    """Exact interval for ``k`` successes in ``n`` trials (arrays broadcast)."""
    k, n = np.asarray(k, float), np.asarray(n, float)
    a = (1 - conf) / 2
    lo = np.where(k > 0, beta.ppf(a, np.maximum(k, 1e-300), n - k + 1), 0.0)
    hi = np.where(k < n, beta.ppf(1 - a, k + 1, np.maximum(n - k, 1e-300)), 1.0)
    return lo, hi


def wilson(k, n, conf: float = 0.99) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for ``k`` successes in ``n`` trials (arrays broadcast)."""
    k, n = np.asarray(k, float), np.asarray(n, float)
    z = norm.ppf(1 - (1 - conf) / 2)
    ph = k / n
    centre = (ph + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def _logistic(x: np.ndarray, N: float, w: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(np.clip((x - N) / w, -500, 500)))


def fit_sigmoid(x, freq) -> tuple[float, float]:
    """Threshold ``N`` and width ``w`` of the decreasing logistic curve through ``(x, freq)``."""
    x, freq = np.asarray(x, float), np.asarray(freq, float)
    N0 = x[np.argmin(np.abs(freq - 0.5))]
    w0 = max((x.max() - x.min()) / 10, 1e-9)
    with warnings.catch_warnings():  # the covariance is not used: a step-shaped curve makes it singular
        warnings.simplefilter("ignore", OptimizeWarning)
        (N, w), _ = curve_fit(_logistic, x, freq, p0=(N0, w0), maxfev=10_000)
    return float(N), float(abs(w))
