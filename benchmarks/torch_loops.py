"""PyTorch full-batch training loops of the kind the papers' authors write.

One network at a time, autograd for the gradient, ``torch.optim.SGD`` for the update,
on the CPU (the kou2023 and dana2025 loops also on CUDA, for the GPU rows). These are
the *baselines*; they are written plainly on purpose (no ``torch.compile``, no batching
over runs), because that is what the comparison is about. PyTorch is optional:
:func:`available` is ``False`` when it cannot be imported and every benchmark then reports
"not measured".
"""

from __future__ import annotations

import importlib
from functools import cache
from types import ModuleType

import numpy as np


@cache
def _torch() -> ModuleType | None:
    try:
        return importlib.import_module("torch")
    except Exception:  # ImportError or a broken install
        return None


def available() -> bool:
    """True iff PyTorch imports."""
    return _torch() is not None


def cuda_available() -> bool:
    """True iff PyTorch imports and sees a CUDA device."""
    torch = _torch()
    return torch is not None and torch.cuda.is_available()


def info() -> dict:
    """PyTorch version and intra-op thread count (empty when PyTorch is absent)."""
    torch = _torch()
    if torch is None:
        return {}
    return {"version": torch.__version__, "threads": torch.get_num_threads()}


def _dtype(name: str):
    torch = _torch()
    return {"float32": torch.float32, "float64": torch.float64}[name]


def kou_run(
    X: np.ndarray,
    y: np.ndarray,
    W0: np.ndarray,
    a: np.ndarray,
    *,
    alpha: float,
    lr: float,
    steps: int,
    dtype: str,
    device: str = "cpu",
) -> np.ndarray:
    """Train one kou2023 net (only ``W`` trained, logistic loss) with SGD on ``device``; return the
    final ``W``."""
    torch = _torch()
    F = torch.nn.functional
    dt = _dtype(dtype)
    Xt, yt, at = (torch.tensor(v, dtype=dt, device=device) for v in (X, y, a))
    W = torch.tensor(W0, dtype=dt, device=device, requires_grad=True)
    opt = torch.optim.SGD([W], lr=lr)
    for _ in range(steps):
        opt.zero_grad()
        out = F.leaky_relu(Xt @ W.T, alpha) @ at
        loss = F.softplus(-yt * out).mean()
        loss.backward()
        opt.step()
    return W.detach().cpu().numpy().astype(np.float64)


def dana_run(
    X: np.ndarray,
    y: np.ndarray,
    W0: np.ndarray,
    a0: np.ndarray,
    *,
    lr: float,
    max_steps: int,
    threshold: float,
    dtype: str,
    device: str = "cpu",
) -> tuple[bool, int, float]:
    """Train one dana2025 net (both layers, 1/p scaling, GD on ``p * L``) on ``device`` until
    ``L < threshold`` or ``max_steps``; return ``(converged, steps, final loss)``."""
    torch = _torch()
    F = torch.nn.functional
    dt = _dtype(dtype)
    p = W0.shape[0]
    Xt, yt = (torch.tensor(v, dtype=dt, device=device) for v in (X, y))
    W = torch.tensor(W0, dtype=dt, device=device, requires_grad=True)
    a = torch.tensor(a0, dtype=dt, device=device, requires_grad=True)
    opt = torch.optim.SGD([W, a], lr=lr)
    for step in range(max_steps + 1):
        opt.zero_grad()
        f = F.relu(Xt @ W.T) @ a / p
        loss = 0.5 * ((f - yt) ** 2).mean()
        value = loss.item()
        if value < threshold or step == max_steps:
            return value < threshold, step, value
        (p * loss).backward()
        opt.step()
    raise AssertionError("unreachable")  # pragma: no cover


def ncf_run(
    G: np.ndarray,
    Q: np.ndarray,
    u0: np.ndarray,
    *,
    alpha: float,
    p: int,
    step: float,
    iters: int,
    dtype: str,
) -> tuple[np.ndarray, float]:
    """Projected gradient ascent of one restart on the neuron NCF
    ``h(a, b) = sum_i (b . q_i) max(a . g_i, alpha a . g_i)^p`` (``G`` (k_in, n), ``Q``
    (k_out, n)) on the unit sphere, autograd for the gradient; return ``(u, h(u))``."""
    torch = _torch()
    dt = _dtype(dtype)
    Gt, Qt = torch.tensor(G, dtype=dt), torch.tensor(Q, dtype=dt)
    k_in = G.shape[0]

    def value(u):
        a, b = u[:k_in], u[k_in:]
        s = a @ Gt
        return ((b @ Qt) * torch.maximum(s, alpha * s) ** p).sum()

    u = torch.tensor(u0, dtype=dt)
    u = u / u.norm()
    for _ in range(iters):
        u.requires_grad_(True)
        (g,) = torch.autograd.grad(value(u), u)
        with torch.no_grad():
            u = u + step * g
            u = u / u.norm()
    with torch.no_grad():
        return u.numpy().astype(np.float64), float(value(u))
