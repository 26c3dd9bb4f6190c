r"""Exact gradient descent of the fixed-readout net in data-correlated coordinates (kou2023 Def. 5.1).

GD (3.2) moves every neuron inside :math:`w^{(0)}_{j,r}+\mathrm{span}\{x_i\}`, so with the
decomposition (5.1) :math:`w^{(t)}_{j,r}=w^{(0)}_{j,r}+\sum_i\rho^{(t)}_{j,r,i}\|x_i\|^{-2}x_i`
the whole trajectory is carried by the coefficients :math:`P=(\rho_{j,r,i})` ``(B, 2m, n)`` and
the initial projections :math:`Z^{(0)}=W^{(0)}X^\top`:

.. math::  Z^{(t)}=Z^{(0)}+P^{(t)}H,\qquad H=D^{-1}G,\ D=\mathrm{diag}(\|x_i\|^2),\ G=XX^\top,

.. math::  \rho^{(t+1)}_{j,r,i}=\rho^{(t)}_{j,r,i}
           +\frac{\eta}{nm}|\ell_i'^{(t)}|\,\sigma'(Z^{(t)}_{j,r,i})\,\|x_i\|^2\,jy_i

((5.4)/(5.5) combined).  This is the GD map itself (not an approximation): it costs
:math:`O(mn^2)` per step whatever ``d`` is.  Quantities needing ``W`` use the Gram matrix

.. math::  WW^\top=K^{(0)}+Z^{(0)}D^{-1}P^\top+PD^{-1}Z^{(0)\top}+PD^{-1}GD^{-1}P^\top,
           \qquad K^{(0)}=W^{(0)}W^{(0)\top}.

Frozen-pattern acceleration (exact).  While the activation pattern :math:`S=\sigma'(Z)` does
not change, :math:`P^{(t)}=P^{(t_0)}+C\odot S\odot\Delta A^{(t)}` with
:math:`C_{j,r,i}=\frac{\eta}{nm}jy_i\|x_i\|^2` and :math:`\Delta A_i^{(t)}=\sum_{s=t_0}^{t-1}|\ell_i'^{(s)}|`,
and the margins obey the closed :math:`n`-dimensional map

.. math::  q_i^{(t+1)}=q_i^{(t)}+\sum_k M_{ik}|\ell'(q_k^{(t)})|,\qquad
           M_{ik}=\frac{\eta}{nm^2}\,y_iy_kG_{ik}\sum_{j,r}S_{j,r,i}S_{j,r,k}.

A chunk of steps is run with this map and then *certified*: :math:`\Delta A` is
componentwise nondecreasing, and :math:`Z` is affine in it, so the extreme values of every
:math:`Z_{j,r,i}` over the chunk are bounded by its values on the box
:math:`[\Delta A^{(t_0)},\Delta A^{(t_1)}]`; if no entry can cross zero (with a rounding
margin), the pattern was :math:`S` at every step and the chunk is exact.  A member whose
chunk is not certified re-runs that chunk step by step.  The per-step cost of a certified
chunk is independent of ``m``.  ``accelerate=False`` runs every step in coefficient form.

Every step in coefficient form runs on the engine (:class:`CoefficientStep`, the GD method of
:func:`numeric.engine.solve.solve`).  The frozen margin map stays a loop of its own: its step is a
few microseconds of ``n``-sized work, which the engine's per-step dispatch (a row of the time grid,
a method call, views of the state) made 1.9-2.2x slower when it was moved there (measured).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

import numpy as np

from numeric.backend import Array, Backend, to_numpy
from numeric.data.near_orthogonal import GramData, bartlett_wishart
from numeric.engine.descent import gradient_descent
from numeric.engine.trajectory import Status, Trajectory
from numeric.models.activation import Activation
from numeric.models.fixed_readout import (
    OBJECTIVE,
    activation,
    class_of_rows,
    fast_loss_derivative_magnitude,
    margins,
    readout,
)

CERTIFY_RTOL = 1e-9  # rounding margin of the chunk certificate, relative to |Z| + |change|


@dataclass(frozen=True)
class InitialState:
    r"""Initial projections :math:`Z^{(0)}=W^{(0)}X^\top` ``(B, 2m, n)`` and Gram
    :math:`K^{(0)}=W^{(0)}W^{(0)\top}` ``(B, 2m, 2m)``."""

    Z0: np.ndarray
    K0: np.ndarray

    @property
    def B(self) -> int:
        return self.Z0.shape[0]


def draw_projections(rng: np.random.Generator, G: np.ndarray, rows: int, sigma0: float, B: int) -> np.ndarray:
    r"""Initial projections :math:`Z^{(0)}=W^{(0)}X^\top` ``(B, rows, n)``: i.i.d. rows
    :math:`N(0,\sigma_0^2G)`."""
    lam, U = np.linalg.eigh(G)
    keep = lam > 1e-12 * lam.max()
    root = U[:, keep] * np.sqrt(lam[keep])  # G = root root^T
    return sigma0 * rng.normal(size=(B, rows, int(keep.sum()))) @ root.T


def draw_initial(rng: np.random.Generator, data: GramData, m: int, sigma0: float, B: int) -> InitialState:
    r"""Exact law of :math:`(W^{(0)}X^\top, W^{(0)}W^{(0)\top})` for i.i.d. :math:`N(0,\sigma_0^2)` weights
    in dimension ``d``.

    Rows of :math:`Z^{(0)}` are :math:`N(0,\sigma_0^2G)`.  Splitting :math:`W^{(0)}` into its
    parts in and orthogonal to :math:`\mathrm{span}\{x_i\}` gives
    :math:`K^{(0)}=Z^{(0)}G^{+}Z^{(0)\top}+\sigma_0^2\,\mathrm{Wishart}_{2m}(d-\mathrm{rank}\,G,I)`, the
    two parts independent.
    """
    Z0 = draw_projections(rng, data.G, 2 * m, sigma0, B)
    lam, U = np.linalg.eigh(data.G)
    keep = lam > 1e-12 * lam.max()
    Gpinv = (U[:, keep] / lam[keep]) @ U[:, keep].T
    K0 = Z0 @ Gpinv @ np.swapaxes(Z0, 1, 2)
    dof = data.d - int(keep.sum())
    if dof > 0:
        K0 = K0 + sigma0**2 * bartlett_wishart(rng, 2 * m, dof, B)
    return InitialState(Z0, K0)


def initial_from_weights(W0: np.ndarray, X: np.ndarray) -> InitialState:
    """The :class:`InitialState` of explicit weights ``W0`` ``(B, 2m, d)`` on points ``X`` ``(n, d)``."""
    return InitialState(W0 @ X.T, W0 @ np.swapaxes(W0, 1, 2))


@dataclass
class ReducedRun:
    r"""Records of a reduced GD run (host arrays).

    ``t`` ``(R,)`` recorded steps; ``P`` ``(B, R, 2m, n)`` coefficients :math:`\rho`; ``q``
    ``(B, R, n)`` margins; ``loss`` ``(B, R)``.  Per-step monitors, over every step taken:
    ``last_flip`` ``(B, 2m, n)`` the last step ``t`` at which :math:`\mathrm{sign}(Z^{(t)}_{j,r,i})`
    differs from step ``t-1`` (0: never); ``act0`` ``(B, 2m, n)`` the initial pattern
    :math:`Z^{(0)}\ge0`; ``exact_steps`` ``(B,)`` steps run in coefficient form (the rest were
    certified frozen chunks).
    """

    t: np.ndarray
    P: np.ndarray
    q: np.ndarray
    loss: np.ndarray
    last_flip: np.ndarray
    act0: np.ndarray
    exact_steps: np.ndarray
    model: ReducedGD

    @property
    def ever_on(self) -> np.ndarray:
        r"""Whether :math:`Z_{j,r,i}\ge0` at some step (an entry that never flipped keeps its initial
        sign)."""
        return self.act0 | (self.last_flip > 0)

    @property
    def ever_off(self) -> np.ndarray:
        r"""Whether :math:`Z_{j,r,i}<0` at some step."""
        return ~self.act0 | (self.last_flip > 0)

    def Z(self) -> np.ndarray:
        """Pre-activations ``(B, R, 2m, n)`` at the records."""
        return self.model.init.Z0[:, None] + self.P @ self.model.H_host

    def gram(self) -> np.ndarray:
        r""":math:`W^{(t)}W^{(t)\top}` ``(B, R, 2m, 2m)`` at the records (module docstring)."""
        mdl = self.model
        PD = self.P / mdl.data.norms2
        Z0 = mdl.init.Z0[:, None]
        cross = Z0 @ np.swapaxes(PD, -1, -2)
        return (
            mdl.init.K0[:, None]
            + cross
            + np.swapaxes(cross, -1, -2)
            + PD @ mdl.data.G @ np.swapaxes(PD, -1, -2)
        )

    def increment_gram(self) -> np.ndarray:
        r""":math:`(W^{(t)}-W^{(0)})(W^{(t)}-W^{(0)})^\top=PD^{-1}GD^{-1}P^\top` ``(B, R, 2m, 2m)``."""
        PD = self.P / self.model.data.norms2
        return PD @ self.model.data.G @ np.swapaxes(PD, -1, -2)


def class_blocks(K: np.ndarray, m: int) -> np.ndarray:
    r"""The per-class Gram blocks :math:`W_jW_j^\top` ``(..., 2, m, m)`` (``j=+1`` first) of ``K`` ``(...,
    2m, 2m)``."""
    return np.stack([K[..., :m, :m], K[..., m:, m:]], axis=-3)


def stable_rank_from_gram(K: np.ndarray) -> np.ndarray:
    r""":math:`\|W\|_F^2/\|W\|_2^2=\mathrm{tr}K/\lambda_{\max}(K)` for Gram matrices ``K`` ``(..., k, k)``."""
    lam = np.linalg.eigvalsh(K)
    return lam.sum(axis=-1) / lam[..., -1]


def fold_pattern(xp: ModuleType, last_flip: Array, prev: Array, act: Array, t: Array | int) -> None:
    """Fold the activation pattern ``act`` of step ``t`` (an int, or a float per member ``(B, 1, 1)``, of
    ``last_flip``'s kind) into the monitors, in place: ``last_flip`` takes ``t`` where ``act`` differs
    from ``prev``, ``prev`` becomes ``act``."""
    xp.copyto(last_flip, t, where=act != prev)
    prev[...] = act


@dataclass(frozen=True, eq=False)
class CoefficientStep:
    r"""The GD map in coefficient form as a field of the engine (module docstring):
    :math:`P\leftarrow P+C\odot\sigma'(Z)\odot|\ell'(q)|`, :math:`Z=Z^{(0)}+PH`, with the step
    :math:`\eta` inside :math:`C`, so the engine runs it at ``lr = 1``.

    State: :math:`P` flat, ``(B, 2m n)``.  ``args`` (one row per member, :meth:`ReducedGD._on_engine`):
    ``Z0`` and ``coef`` ``(B, 2m, n)``, a scratch ``Z`` for the pre-activations, and the per-step
    monitors ``last_flip`` (float) and ``prev`` (bool) ``(B, 2m, n)``, into which :meth:`descend`
    folds the pattern of every step it takes with the run's own step index (:func:`fold_pattern`;
    records would hold them only by recording every step).  Calling the field leaves them alone.
    ``sigma`` is the activation of the run's members (their slopes :math:`\gamma`): a field is built
    per run, whose members never change (the increments are bounded, so a member with finite inputs
    stays finite and is never dropped).
    """

    xp: ModuleType
    H: Array
    y: Array
    a: Array
    sigma: Activation

    def _increment(self, t: Array, P: Array, args: dict[str, Array], monitor: bool) -> Array:
        xp = self.xp
        Z0, Z = args["Z0"], args["Z"]
        xp.matmul(P.reshape(-1, Z0.shape[-1]), self.H, out=Z.reshape(-1, Z0.shape[-1]))
        Z += Z0
        if monitor:
            fold_pattern(xp, args["last_flip"], args["prev"], Z >= 0, t[:, None, None])
        sp = self.sigma.slope(Z)
        Z *= sp  # sigma(Z) = sigma'(Z) Z
        g = fast_loss_derivative_magnitude(self.y * (self.a @ Z))
        sp *= args["coef"]
        sp *= g[:, None, :]
        return sp.reshape(P.shape)

    def __call__(self, t: Array, P: Array, args: dict[str, Array]) -> Array:
        """The increment of one step, ``(B, 2m n)``."""
        return self._increment(t, P, args, monitor=False)

    def descend(self, t: Array, P: Array, lr: float | Array, args: dict[str, Array]) -> None:
        """One step in place, ``P += lr * self(t, P, args)``, with the monitors updated."""
        _unit_step(lr)
        P += self._increment(t, P, args, monitor=True)


def _unit_step(lr: float | Array) -> None:
    """The map carries its step in its coefficients: the engine runs it at ``lr = 1``."""
    if not (isinstance(lr, float) and lr == 1.0):
        raise ValueError(f"this map runs at lr = 1 (its step is inside its coefficients), got lr={lr!r}")


class ReducedGD:
    r"""The exact GD map in coefficient form for one data set and an ensemble of ``B`` members.

    ``gamma`` and ``eta`` are scalars or ``(B,)``; ``init`` holds the ``B`` initial states.
    Arrays live on ``backend``; records are returned on the host.
    """

    def __init__(self, backend: Backend, data: GramData, m: int, gamma, eta, init: InitialState):
        B = init.B
        self.backend, self.data, self.m, self.init = backend, data, m, init
        self.gamma_host = np.broadcast_to(np.asarray(to_numpy(gamma), float), (B,)).copy()
        self.eta_host = np.broadcast_to(np.asarray(to_numpy(eta), float), (B,)).copy()
        if np.any(self.gamma_host < 0) or np.any(self.gamma_host > 1):
            raise ValueError("gamma must lie in [0, 1]")
        n = data.n
        self.H_host = data.G / data.norms2[:, None]
        j = class_of_rows(m)
        coef = (self.eta_host / (n * m))[:, None, None] * (
            j[:, None] * data.y[None, :] * data.norms2[None, :]
        )[None]
        be = backend
        self.xp = be.xp
        self.H = be.asarray(self.H_host)
        self.Hpos, self.Hneg = be.asarray(np.maximum(self.H_host, 0)), be.asarray(np.minimum(self.H_host, 0))
        self.y = be.asarray(data.y)
        self.coef = be.asarray(coef)
        self.gam = be.asarray(self.gamma_host.reshape(B, 1, 1))
        self.Z0 = be.asarray(init.Z0)
        yyG = data.y[:, None] * data.y[None, :] * data.G
        self.Mq_base = be.asarray((self.eta_host / (n * m * m))[:, None, None] * yyG[None])
        self.a = be.asarray(readout(m))

    # ------------------------------------------------------------------ coefficient form
    def _observe(self, mon: dict, act: Array, t: int, idx: Array | None) -> None:
        """Monitors see the pattern ``act`` of step ``t`` (members ``idx``; all if None)."""
        xp = self.xp
        if idx is None:
            fold_pattern(xp, mon["last_flip"], mon["prev"], act, t)
            return
        last, prev = mon["last_flip"][idx], mon["prev"][idx]
        fold_pattern(xp, last, prev, act, t)
        mon["last_flip"][idx], mon["prev"][idx] = last, prev

    def _on_engine(
        self, P: Array, t0: int, steps: int, record, idx: Array | None, mon: dict, observe=None
    ) -> Trajectory:
        """``steps`` GD steps from step ``t0`` in coefficient form for members ``idx`` (all if None), on
        the engine (:class:`CoefficientStep`), recording at ``record`` (steps from ``t0``).  The monitors
        ``mon`` see the patterns of steps ``t0 .. t0+steps-1``."""
        xp = self.xp
        take = (lambda a: a) if idx is None else (lambda a: a[idx])
        Z0 = take(self.Z0)
        args = {
            "Z0": Z0,
            "coef": take(self.coef),
            "Z": xp.empty_like(Z0),
            "last_flip": xp.full(Z0.shape, -1.0),  # the last flip in this run, from its step 0
            "prev": take(mon["prev"]),
        }
        field = CoefficientStep(xp, self.H, self.y, self.a, activation(take(self.gam)))
        traj = gradient_descent(
            field,
            P.reshape(P.shape[0], -1),
            lr=1.0,
            steps=steps,
            record=record,
            args=args,
            observe=observe,
            save_state=observe is not None,
        )
        if np.any(traj.status != Status.SUCCESS):
            raise ValueError("reduced GD met non-finite coefficients: the initial state or eta is not finite")
        flipped = args["last_flip"] >= 0
        last = xp.where(flipped, (args["last_flip"] + t0).astype(xp.int64), take(mon["last_flip"]))
        if idx is None:
            mon["last_flip"][...], mon["prev"][...] = last, args["prev"]
        else:
            mon["last_flip"][idx], mon["prev"][idx] = last, args["prev"]
        return traj

    def _exact(self, P: Array, t0: int, k: int, idx: Array | None, mon: dict) -> Array:
        """``k`` GD steps from step ``t0`` in coefficient form for members ``idx`` (all if None); the
        monitors see the patterns of steps ``t0 .. t0+k-1``."""
        return self._on_engine(P, t0, k, [k], idx, mon).y_stop.reshape(P.shape)

    # ------------------------------------------------------------------ frozen chunks
    def _frozen(self, P: Array, k: int) -> tuple[Array, Array, Array]:
        """``k`` steps of the margin map with the pattern of ``P`` frozen.

        Returns the new coefficients, the certificate ``(B,)`` and the frozen pattern ``act``.
        """
        xp = self.xp
        Z = self.Z0 + P @ self.H
        act = Z >= 0
        S = activation(self.gam).slope(Z)
        N = xp.einsum("bri,brk->bik", S, S)
        Mq = self.Mq_base * N
        q = self.y * xp.einsum("r,bri->bi", self.a, S * Z)
        A = xp.zeros_like(q)
        Mt = xp.swapaxes(Mq, 1, 2).copy()
        q = q[:, None, :]
        A = A[:, None, :]
        exp = xp.exp
        for _ in range(k):
            g = 1.0 / (1.0 + exp(q))  # |l'(q)| (fast_loss_derivative_magnitude) inlined: the hot path
            A = A + g
            q = q + g @ Mt
        A = A[:, 0, :]
        c = self.coef * S * A[:, None, :]
        cp, cn = xp.maximum(c, 0), xp.minimum(c, 0)
        low = Z + cp @ self.Hneg + cn @ self.Hpos
        high = Z + cp @ self.Hpos + cn @ self.Hneg
        margin = CERTIFY_RTOL * (xp.abs(Z) + xp.abs(c) @ xp.abs(self.H))
        ok_entry = xp.where(act, low >= margin, high <= -margin)
        ok = ok_entry.reshape(ok_entry.shape[0], -1).all(axis=1)
        return P + c, ok, act

    # ------------------------------------------------------------------ driver
    def run(self, steps: int, record, *, accelerate: bool = True) -> ReducedRun:
        r"""Take ``steps`` GD steps, recording at the strictly increasing steps ``record`` (within ``[0,
        steps]``).

        ``exp`` may overflow to ``inf`` inside (where :math:`|\ell'|` is exactly 0); that is not an error.
        """
        with np.errstate(over="ignore"):
            return self._run(steps, record, accelerate)

    def _run(self, steps: int, record, accelerate: bool) -> ReducedRun:
        xp = self.xp
        rec = np.asarray(to_numpy(record), dtype=np.int64)
        if rec.ndim != 1 or rec.size == 0 or np.any(np.diff(rec) <= 0) or rec[0] < 0 or rec[-1] > steps:
            raise ValueError(f"record must be strictly increasing steps within [0, {steps}]")
        B = self.init.B
        P = xp.zeros_like(self.Z0)
        act0 = self.Z0 >= 0
        mon = {
            "prev": act0.copy(),
            "last_flip": xp.zeros(act0.shape, dtype=xp.int64),
        }
        if not accelerate:  # one run of the engine, recording P and the margins
            traj = self._on_engine(P, 0, steps, rec, None, mon, observe=self._margins)
            P = traj.y_stop.reshape(P.shape)
            self._observe(mon, (self.Z0 + P @ self.H) >= 0, steps, None)
            return self._result(
                rec,
                to_numpy(traj.ys).reshape(B, rec.size, *P.shape[1:]),
                to_numpy(traj.observed["q"]),
                mon,
                act0,
                np.full(B, steps, dtype=np.int64),
            )
        exact_steps = np.zeros(B, dtype=np.int64)
        out_P, out_q = [], []
        bounds = _chunk_bounds(steps, rec)
        t, r = 0, 0
        for t1 in bounds.tolist():
            if t1 > t:
                k = t1 - t
                if k >= 4:
                    P_new, ok, act = self._frozen(P, k)
                    ok_h = to_numpy(ok)
                    good, bad = np.flatnonzero(ok_h), np.flatnonzero(~ok_h)
                    if good.size:
                        good_d = xp.asarray(good)
                        self._observe(mon, act[good_d], t, good_d)
                    if bad.size:
                        bad_d = xp.asarray(bad)
                        P_new[bad_d] = self._exact(P[bad_d].copy(), t, k, bad_d, mon)
                        exact_steps[bad] += k
                    P = P_new
                else:
                    P = self._exact(P, t, k, None, mon)
                    exact_steps += k
                t = t1
            if r < rec.size and rec[r] == t:
                Z = self.Z0 + P @ self.H
                out_P.append(np.array(to_numpy(P), copy=True))
                out_q.append(to_numpy(margins(Z, self.y, self.gam, self.m)))
                r += 1
        self._observe(mon, (self.Z0 + P @ self.H) >= 0, steps, None)
        return self._result(rec, np.stack(out_P, axis=1), np.stack(out_q, axis=1), mon, act0, exact_steps)

    def _margins(self, t: Array, P: Array, args: dict[str, Array]) -> dict[str, Array]:
        """Observer of the engine run: the margins ``q`` ``(B, n)``."""
        Z = args["Z0"] + P.reshape(args["Z0"].shape) @ self.H
        return {"q": margins(Z, self.y, self.gam, self.m)}

    def _result(
        self, rec: np.ndarray, P: np.ndarray, q: np.ndarray, mon: dict, act0: Array, exact_steps: np.ndarray
    ) -> ReducedRun:
        return ReducedRun(
            t=rec.astype(float),
            P=P,
            q=q,
            loss=to_numpy(OBJECTIVE.value(self.backend.asarray(q), 1.0)),
            last_flip=to_numpy(mon["last_flip"]),
            act0=to_numpy(act0),
            exact_steps=exact_steps,
            model=self,
        )


def _chunk_bounds(steps: int, rec: np.ndarray) -> np.ndarray:
    """Chunk ends: every record, and a geometric grid (chunks of about t/8 steps, at least 16)."""
    grid = [0]
    while grid[-1] < steps:
        grid.append(min(steps, grid[-1] + max(16, grid[-1] // 8)))
    return np.union1d(to_numpy(grid), rec)


def log_grid(steps: int, per_decade: int = 12) -> np.ndarray:
    """Record steps: 0, 1 and about ``per_decade`` log-spaced steps per decade up to ``steps``."""
    pts = np.unique(
        np.round(np.logspace(0, np.log10(max(steps, 1)), int(per_decade * np.log10(max(steps, 10))) + 1))
    )
    return np.unique(np.concatenate([[0], pts.astype(np.int64), [steps]]))
