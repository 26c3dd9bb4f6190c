r"""zhang2025's searched instances: the data transforms and the linear partner's init they share.

The searches of Theorem 8, Corollaries 9 and 10 and Figure 3-corrected draw free parameters and map them
into the hypotheses: inputs whitened and given a chosen covariance spectrum (:func:`whitened`), targets
rescaled to a chosen :math:`s=\|\beta\|` (:func:`scaled_targets`, eq. (4)'s :math:`\beta=\langle yx\rangle`),
and the linear partner's initialisation on Assumption 7 (:func:`partner_init`).
"""

from __future__ import annotations

import numpy as np


def whitened(X0: np.ndarray, kappa: float = 1.0) -> np.ndarray:
    r"""``X0`` (n, D), D >= 2, whitened exactly (:math:`\langle xx^\top\rangle=I`), then scaled along its
    axes by :math:`\kappa^{-j/(2(D-1))}`, :math:`j=0..D-1`: :math:`\Sigma=\mathrm{diag}(1,\dots,\kappa^{-1})`,
    condition number :math:`\kappa`."""
    n, D = X0.shape
    ev, U = np.linalg.eigh(X0.T @ X0 / n)
    return X0 @ U / np.sqrt(ev) * kappa ** (-np.arange(D) / (2 * (D - 1)))


def scaled_targets(X0: np.ndarray, y0: np.ndarray, s: float = 1.0) -> np.ndarray:
    r"""``y0`` rescaled so that :math:`\|\beta\|=\|\langle yx\rangle\|=s` on the inputs ``X0`` (n, D) (the
    same on :math:`[X_0;-X_0]`, :math:`[y_0;-y_0]`): a time and weight rescaling of any other instance."""
    return y0 * s / np.linalg.norm(X0.T @ y0 / len(y0))


def partner_init(profile: np.ndarray, r: np.ndarray, w_init: float) -> np.ndarray:
    r"""The linear partner's initial state on Assumption 7, packed ``(1, H D + H)``: :math:`W_2` = the signed
    ``profile`` (H,) with its positive and negative parts each scaled to norm :math:`w_{\rm init}/\sqrt2`
    (both non-empty), :math:`W_1=W_2^\top\hat r^\top`, :math:`\hat r=r/\|r\|` (rank one, balanced)."""
    pos, neg = np.maximum(profile, 0), np.minimum(profile, 0)
    W2 = (pos / np.linalg.norm(pos) + neg / np.linalg.norm(neg)) * w_init / np.sqrt(2)
    return np.concatenate([np.outer(W2, r / np.linalg.norm(r)).ravel(), W2])[None]
