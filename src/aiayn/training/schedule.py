"""The learning-rate schedule and optimiser of paper §5.3."""

from __future__ import annotations

import torch
from torch import nn


def noam_lr(step: int, d_model: int, warmup: int = 4000, scale: float = 1.0) -> float:
    """§5.3, Eq. 3: lrate = d_model^-0.5 · min(step^-0.5, step · warmup^-1.5) (steps count from 1)."""
    step = max(step, 1)
    return scale * d_model**-0.5 * min(step**-0.5, step * warmup**-1.5)


def build_optimizer(
    model: nn.Module,
    d_model: int,
    warmup: int = 4000,
    lr_scale: float = 1.0,
    betas: tuple[float, float] = (0.9, 0.98),
    eps: float = 1e-9,
) -> tuple[torch.optim.Adam, torch.optim.lr_scheduler.LambdaLR]:
    """§5.3: Adam(β1 = 0.9, β2 = 0.98, ε = 1e-9) driven by ``noam_lr``; call ``scheduler.step()``
    after every ``optimizer.step()``. ``lr_scale`` multiplies the whole curve (1.0 = the paper).

    Adam is PyTorch's fused kernel where the parameters' device has one (one pass over each tensor, several times
    as fast as the for-loop form on the CPU; equal to it within float32 rounding). A resumed run keeps the form
    its state was saved with (the saved ``fused`` flag wins), so resuming stays bit for bit."""
    params = list(model.parameters())
    fused = all(p.device.type in ("cpu", "cuda") and p.dtype == torch.float32 for p in params) or None
    optimizer = torch.optim.Adam(params, lr=1.0, betas=betas, eps=eps, fused=fused)
    # LambdaLR counts from 0; the paper's first update is step 1.
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda i: noam_lr(i + 1, d_model, warmup, lr_scale)
    )
    return optimizer, scheduler
