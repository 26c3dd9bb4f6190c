r"""A stand-in for MNIST that ships with an installable package: scikit-learn's digits.

``sklearn.datasets.load_digits`` bundles 1797 grey-scale 8x8 images (pixel values
0..16, about 180 per class) inside the wheel, so no download happens at run time.
The papers' MNIST experiments use two digits (min2024 Figs. 5, 10-13: 0/1, 3/8, 1/7)
or an unspecified binarisation of the ten classes (kou2023 Figs. 2-5); both are built
here from the same loader.

Preprocessing (min2024 Sec. 5): pixels scaled to [0, 1], then centred by the *global*
mean of the selected images, :math:`x_i \leftarrow x_i - \bar x`.  Assumption 1
(same-label pairs positively correlated, opposite-label pairs negatively) then holds
only approximately; :func:`gram_sign_agreement` measures how far.
"""

from __future__ import annotations

import numpy as np

from numeric.data.datasets import Dataset

PIXEL_MAX = 16.0


def _load() -> tuple[np.ndarray, np.ndarray]:
    from sklearn.datasets import load_digits  # lazy: only the digit experiments need it

    digits = load_digits()
    return np.asarray(digits.data, dtype=np.float64) / PIXEL_MAX, np.asarray(digits.target)


def digit_pair(
    positive: int,
    negative: int,
    *,
    per_class: int | None = None,
    center: bool = True,
    rng: np.random.Generator | None = None,
) -> Dataset:
    """Digits ``positive`` (label +1) vs ``negative`` (label -1), 64 features.

    ``per_class`` images of each digit are drawn without replacement by ``rng``
    (all of them when ``None``).  ``center`` subtracts the global mean of the
    selected images (min2024's preprocessing).
    """
    if positive == negative or not {positive, negative} <= set(range(10)):
        raise ValueError(f"need two different digits in 0..9, got {positive} and {negative}")
    X, t = _load()
    rows = []
    for digit in (positive, negative):
        idx = np.flatnonzero(t == digit)
        if per_class is not None:
            if not 0 < per_class <= idx.size:
                raise ValueError(f"per_class must be in 1..{idx.size} for digit {digit}, got {per_class}")
            idx = np.sort((rng or np.random.default_rng(0)).choice(idx, per_class, replace=False))
        rows.append(idx)
    X = X[np.concatenate(rows)]
    y = np.concatenate([np.ones(rows[0].size), -np.ones(rows[1].size)])
    if center:
        X = X - X.mean(axis=0)
    return Dataset(X, y, f"digits {positive} vs {negative}", {"centered": center})


def digit_parity(*, center: bool = False) -> Dataset:
    """All ten digits, label +1 for even and -1 for odd (one binarisation of a 10-class set)."""
    X, t = _load()
    if center:
        X = X - X.mean(axis=0)
    return Dataset(X, np.where(t % 2 == 0, 1.0, -1.0), "digits even vs odd", {"centered": center})


def gram_sign_agreement(X: np.ndarray, y: np.ndarray) -> float:
    r"""Fraction of pairs :math:`i<j` with :math:`\mathrm{sign}(x_i^\top x_j)=y_iy_j`.

    Assumption 1 of min2024 holds iff the fraction is 1.
    """
    G = X @ X.T
    i, j = np.triu_indices(len(y), k=1)
    return float(np.mean(np.sign(G[i, j]) == y[i] * y[j]))


def split(ds: Dataset, test_fraction: float, rng: np.random.Generator) -> tuple[Dataset, Dataset]:
    """A random train / test split with the given test fraction."""
    if not 0.0 < test_fraction < 1.0:
        raise ValueError(f"test_fraction must be in (0, 1), got {test_fraction}")
    perm = rng.permutation(ds.P)
    k = round(test_fraction * ds.P)
    test, train = perm[:k], perm[k:]
    return (
        Dataset(ds.X[train], ds.y[train], ds.name + " (train)", ds.meta),
        Dataset(ds.X[test], ds.y[test], ds.name + " (test)", ds.meta),
    )
