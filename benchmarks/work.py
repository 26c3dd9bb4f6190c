r"""Counted work: matmul FLOPs and compulsory bytes, and the floor they imply.

Work is counted analytically from the algorithm, never from the implementation, so
two implementations of the same algorithm get the same count and their *achieved*
rates are comparable. A matmul ``(M, K) @ (K, N)`` counts ``2 M K N`` FLOPs;
elementwise work is not counted (it is bandwidth, counted as bytes).

Bytes are the *compulsory* traffic of one pass over each array the algorithm must
read or write (float64, 8 bytes), ignoring caches that could hold the state: a lower
bound on what a real implementation moves.

The floor of a computation is ``max(FLOPs / matmul rate, bytes / bandwidth)``; the
*fraction of floor* is ``floor / measured time`` (1.0 = at the hardware limit).
"""

from __future__ import annotations

from dataclasses import dataclass

F64 = 8


@dataclass(frozen=True)
class Work:
    """FLOPs and bytes of a computation."""

    flops: float
    bytes: float

    def __add__(self, other: Work) -> Work:
        return Work(self.flops + other.flops, self.bytes + other.bytes)

    def __mul__(self, k: float) -> Work:
        return Work(self.flops * k, self.bytes * k)

    __rmul__ = __mul__


def two_layer_grad_flops(P: int, D: int, H: int) -> float:
    r"""Matmul FLOPs of forward + backward of one net :math:`f = a^\top\sigma(Wx)` on P samples.

    Forward :math:`WX^\top` (2HDP) and :math:`a^\top\sigma` (2HP); backward
    :math:`\partial a = \sigma\,\delta^\top` (2HP), :math:`a\,\delta` (2HP) and
    :math:`\partial W = \Delta X` (2HPD): ``4 H D P + 6 H P``.
    """
    return 4.0 * H * D * P + 6.0 * H * P


def first_layer_grad_flops(P: int, D: int, H: int) -> float:
    """As :func:`two_layer_grad_flops` with a fixed second layer: ``4 H D P + 2 H P``."""
    return 4.0 * H * D * P + 2.0 * H * P


def field_work(flops: float, n_state: int) -> Work:
    """One field evaluation: its FLOPs, reading the state and writing the derivative."""
    return Work(flops, 2.0 * F64 * n_state)


def rk_combination_bytes(stages: int, n_state: int) -> float:
    r"""Compulsory bytes of the linear combinations of one explicit RK step.

    Stage :math:`i` (1..s-1) reads ``y`` and ``i`` stage derivatives and writes its
    point (``i + 2`` arrays); the error estimate reads ``s`` derivatives and writes one
    (``s + 1``); the error norm reads ``y0, y1, e`` (3).
    """
    arrays = sum(i + 2 for i in range(1, stages)) + (stages + 1) + 3
    return float(arrays * F64 * n_state)


def gd_step_work(flops: float, n_state: int) -> Work:
    """One gradient-descent step: the gradient's FLOPs; read the state for the forward
    pass, read and write it for the update (3 passes)."""
    return Work(flops, 3.0 * F64 * n_state)


def floor_seconds(work: Work, gflops: float, gbytes: float) -> float:
    """``max(FLOPs / rate, bytes / bandwidth)`` for rates in GFLOP/s and GB/s."""
    return max(work.flops / (gflops * 1e9), work.bytes / (gbytes * 1e9))


def rates(work: Work, seconds: float, gemm_peak: float, gemm_operand: float, bandwidth: float) -> dict:
    """Achieved GFLOP/s and GB/s of ``work`` done in ``seconds``, and its fractions of floor.

    ``fraction_of_floor_peak`` uses the large-GEMM rate, ``fraction_of_floor_operand``
    the rate measured at the benchmark's own operand sizes.
    """
    floor_peak = floor_seconds(work, gemm_peak, bandwidth)
    floor_operand = floor_seconds(work, gemm_operand, bandwidth)
    return {
        "flops": work.flops,
        "bytes": work.bytes,
        "gflops_per_s": work.flops / seconds / 1e9,
        "gbytes_per_s": work.bytes / seconds / 1e9,
        "floor_peak_s": floor_peak,
        "floor_operand_s": floor_operand,
        "fraction_of_floor_peak": floor_peak / seconds,
        "fraction_of_floor_operand": floor_operand / seconds,
        "bound": "compute" if work.flops / gemm_operand >= work.bytes / bandwidth else "memory",
    }
