r"""GD of the shallow mean-field ReLU net on orthogonal inputs, restricted to its active pairs.

On orthogonal inputs :math:`x_i=c_ie_i` the p-accelerated flow of :mod:`numeric.models.shallow_relu`
decouples into the pre-activations :math:`v_{ji}=\langle w_j|x_i\rangle` (catalog (C1),
dana2025 eq. (48)):

.. math::

    \dot v_{ji}=\frac{c_i^2}n a_jr_i1_{j,i},\qquad
    \dot a_j=\frac1n\sum_ir_i(v_{ji})_+,\qquad
    r_i=y_i-\frac1p\sum_ja_j(v_{ji})_+,

with the paper's subgradient :math:`\sigma'(0)=0`, i.e. :math:`1_{j,i}=\mathbb 1[v_{ji}>0]`.
A pair with :math:`v_{ji}\le0` has zero velocity, contributes nothing to :math:`r`, to
:math:`\dot a` or to the curvature (5), and stays so forever (GD steps included: its update
is exactly 0).  So the exact GD map (step ``lr``) only needs the *active* pairs
:math:`v_{ji}>0`; a pair that reaches :math:`v_{ji}\le0` is dropped for good.  The active set
only shrinks (half the pairs are inactive at an App. B initialization, the wrong-sign ones die
during extinction, Lemma 8), so the cost per step is :math:`O(\#\text{active})\le O(pn)`,
whatever ``d``.

Many networks (members ``b``, each with its own ``(p_b, n_b)``) share one flat pair list:
neuron ``(b, j)`` has the global index ``b * pmax + j`` and example ``(b, i)`` the index
``b * nmax + i``; padded neurons (``a = 0``) and examples (``y = 0``) own no pair and stay inert.
The exact curvature (5) (catalog (C2)) on orthogonal data is

.. math::

    \mu=\frac{2}{np\|R\|^2}\sum_j\Big[\Big(\sum_ir_i(v_{ji})_+\Big)^2
    +a_j^2\sum_ic_i^2r_i^21_{j,i}\Big].

The state lives on the device of the arrays it is built from (NumPy or CuPy, through
:func:`numeric.backend.array_namespace`); every method returns device arrays.  A GD step makes one
explicit sync (whether a pair died, so that the list is compacted only then; the compaction
itself, a boolean index, is a sync on CuPy when it happens).  The sums over pairs are ``bincount``
scatter-adds; CuPy's reads the largest index back to size its output (a hidden sync per call).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

from numeric.backend import Array, array_namespace, to_numpy
from numeric.models.losses import Loss

_SQUARE_SUM = Loss("square", "sum")


@dataclass
class ActivePairs:
    """Flat state of ``B`` padded networks: active pairs ``(row, col, val)`` and the second layer.

    ``val`` (nnz,) > 0: pre-activations of the active pairs; ``row``/``col`` (nnz,): global
    neuron / example indices; ``coef`` (nnz,): :math:`c_i^2/n_b`; ``a`` (B * pmax,); ``y``,
    ``c2`` (B * nmax,); ``p``, ``n`` (B,) the members' own sizes.  All on one device.
    """

    val: Array
    row: Array
    col: Array
    coef: Array
    a: Array
    y: Array
    c2: Array
    p: Array
    n: Array
    pmax: int
    nmax: int

    @classmethod
    def from_dense(cls, V: Array, a: Array, c: Array, y: Array, sizes: Any) -> ActivePairs:
        """From padded ``V`` (B, pmax, nmax), ``a`` (B, pmax), norms ``c`` and labels ``y`` (B, nmax)
        and ``sizes`` (B, 2) = ``(p_b, n_b)`` (the layout of ``ShallowReLU(..., "orthogonal")``), on the
        device of ``V`` (``sizes`` and the others may be host arrays: they are copied there)."""
        xp = array_namespace(V)
        V, a, c, y, sizes = (xp.asarray(x, dtype=xp.float64) for x in (V, a, c, y, sizes))
        _, pmax, nmax = V.shape
        b, j, i = xp.nonzero(V > 0)
        c2 = c**2
        return cls(
            val=V[b, j, i],
            row=b * pmax + j,
            col=b * nmax + i,
            coef=c2[b, i] / sizes[b, 1],
            a=a.reshape(-1).copy(),
            y=y.reshape(-1),
            c2=c2.reshape(-1),
            p=sizes[:, 0],
            n=sizes[:, 1],
            pmax=pmax,
            nmax=nmax,
        )

    @property
    def B(self) -> int:
        return len(self.p)

    @property
    def xp(self) -> ModuleType:
        return array_namespace(self.a)

    def dense(self) -> Array:
        """Padded ``(v_{ji})_+`` (B, pmax, nmax) (inactive pairs are 0)."""
        out = self.xp.zeros(self.B * self.pmax * self.nmax, dtype=self.a.dtype)
        out[self.row * self.nmax + self.col % self.nmax] = self.val  # row = b * pmax + j
        return out.reshape(self.B, self.pmax, self.nmax)

    def _per_example(self, w: Array) -> Array:
        """:math:`\\sum_j` over the active pairs of each example, (B * nmax,)."""
        return self.xp.bincount(self.col, weights=w, minlength=self.B * self.nmax)

    def _per_neuron(self, w: Array) -> Array:
        """:math:`\\sum_i` over the active pairs of each neuron, (B * pmax,)."""
        return self.xp.bincount(self.row, weights=w, minlength=self.B * self.pmax)

    def residual(self, aj: Array | None = None) -> Array:
        """:math:`r_i=y_i-\\frac1{p_b}\\sum_ja_j(v_{ji})_+`, (B, nmax) (0 on padded examples);
        ``aj`` may pass ``a[row]``."""
        aj = self.a[self.row] if aj is None else aj
        h = self._per_example(aj * self.val).reshape(self.B, self.nmax) / self.p[:, None]
        return self.y.reshape(self.B, self.nmax) - h

    def loss(self, r: Array | None = None) -> Array:
        """Eq. (2) per member, (B,): the summed square loss over each member's own ``n`` (as
        :meth:`numeric.models.shallow_relu.ShallowReLU.loss_value`; padded examples have r = 0)."""
        r = self.residual() if r is None else r
        return _SQUARE_SUM.value(r, 0.0) / self.n

    def curvature(self, r: Array | None = None) -> Array:
        """Eq. (5) exactly per member (module docstring), (B,)."""
        r = self.residual() if r is None else r
        ri = r.reshape(-1)[self.col]
        nda = self._per_neuron(ri * self.val).reshape(self.B, self.pmax)
        S = self._per_neuron(self.c2[self.col] * ri * ri).reshape(self.B, self.pmax)
        a = self.a.reshape(self.B, self.pmax)
        total = (nda * nda + a * a * S).sum(axis=1)
        return 2.0 * total / (self.n * self.p * (r * r).sum(axis=1))

    def active_mass(self) -> Array:
        """:math:`\\frac1p\\sum_j a_j^21_{j,i}` per example (Lemma 7, Fig. 6), (B, nmax)."""
        return self._per_example(self.a[self.row] ** 2).reshape(self.B, self.nmax) / self.p[:, None]

    def step(self, lr: float = 1.0) -> Array:
        """One exact GD step of size ``lr`` on :math:`pL` (in place); pairs reaching :math:`v\\le0` are
        dropped. Returns the residual (B, nmax) of the state before the step."""
        aj = self.a[self.row]
        r = self.residual(aj)
        ri = r.reshape(-1)[self.col]
        da = self._per_neuron(ri * self.val).reshape(self.B, self.pmax) / self.n[:, None]
        aj *= ri
        aj *= self.coef
        aj *= lr
        self.val += aj
        self.a += lr * da.reshape(-1)
        self.keep(self.val > 0)
        return r

    def keep(self, mask: Array) -> None:
        """Restrict the pair list to ``mask`` (no copy when every pair is kept; one explicit sync)."""
        if not to_numpy(mask.all()):
            self.val, self.row, self.col = self.val[mask], self.row[mask], self.col[mask]
            self.coef = self.coef[mask]

    def drop_members(self, done: Any) -> None:
        """Remove the pairs of the members flagged in ``done`` (B,), host or device (their state is no
        longer needed)."""
        self.keep(~self.xp.asarray(done)[self.col // self.nmax])
