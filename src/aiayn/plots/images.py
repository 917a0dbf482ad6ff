"""Grids of 8×8 digits: samples of the Image Transformer (Parmar et al. 2018) and its super-resolution.

Legend: each cell is one image, intensity 0 (white paper) .. 16 (black ink) on a fixed gray scale
(``gray_r``, vmin 0, vmax 16) so that cells and figures compare; one square per pixel, no smoothing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from ..data.digits import LEVELS  # noqa: E402

CMAP = "gray_r"
CELL = 0.9  # inches per image


def _show(ax, img, label: str | None = None) -> None:
    ax.imshow(np.asarray(img, dtype=np.float64), cmap=CMAP, vmin=0, vmax=LEVELS - 1, interpolation="nearest")
    ax.set_xticks([])
    ax.set_yticks([])
    if label:
        ax.set_xlabel(label, fontsize=7, labelpad=2)


def _finish(fig, path: str | os.PathLike, title: str | None) -> Path:
    if title:
        fig.suptitle(title, fontsize=10)
    path = Path(path)
    fig.savefig(path, dpi=110, format="png")  # format: written under a temporary name first
    plt.close(fig)
    return path


def plot_digit_grid(images: Sequence[np.ndarray] | np.ndarray, path: str | os.PathLike,
                    rows_labels: Sequence[str] | None = None, title: str | None = None,
                    cols: int | None = None) -> Path:
    """Writes a PNG grid of (8, 8) images (any square side works); returns the path.

    With ``rows_labels`` (e.g. the class names of class-conditional samples) the images fill
    ``len(rows_labels)`` rows in order, each row labelled on its left; their number must be a multiple
    of the rows. Without, ``cols`` images per row (default: up to 10). ValueError for no images or an
    uneven split into labelled rows.
    """
    imgs = [np.asarray(im) for im in images]
    if not imgs:
        raise ValueError("no images to plot")
    if rows_labels is not None:
        rows = len(rows_labels)
        if rows == 0 or len(imgs) % rows:
            raise ValueError(f"{len(imgs)} images do not fill {rows} labelled rows evenly")
        cols = len(imgs) // rows
    else:
        cols = cols or min(len(imgs), 10)
        rows = -(-len(imgs) // cols)
    left = 0.9 if rows_labels is not None else 0.0
    height = 0.35 * bool(title) + rows * CELL
    fig, axes = plt.subplots(rows, cols, figsize=(left + cols * CELL, height), squeeze=False, layout="constrained")
    for ax, img in zip(axes.flat, imgs):
        _show(ax, img)
    for ax in axes.flat[len(imgs):]:
        ax.axis("off")
    if rows_labels is not None:
        for ax, label in zip(axes[:, 0], rows_labels):
            ax.set_ylabel(str(label), rotation=0, ha="right", va="center", fontsize=9, labelpad=6)
    return _finish(fig, path, title)


def plot_super_resolution(low: np.ndarray, out: np.ndarray, truth: np.ndarray, bicubic: np.ndarray,
                          path: str | os.PathLike, title: str | None = None) -> Path:
    """Writes a PNG with one row per example: the 4×4 input | the bicubic baseline | the model's output |
    the true 8×8 image, each output labelled with its mean absolute error per pixel to the truth (intensity 0..16).

    ``low`` (N, 4, 4), ``out``, ``truth`` and ``bicubic`` (N, 8, 8); returns the path. ValueError if
    the four do not hold the same number of examples.
    """
    low, out, truth, bicubic = (np.asarray(a, dtype=np.float64) for a in (low, out, truth, bicubic))
    if low.ndim == 2:
        low, out, truth, bicubic = low[None], out[None], truth[None], bicubic[None]
    n = len(low)
    if not (len(out) == len(truth) == len(bicubic) == n) or n == 0:
        raise ValueError(f"need the same number (> 0) of inputs, outputs, truths and bicubic images, "
                         f"got {len(low)}, {len(out)}, {len(truth)}, {len(bicubic)}")
    heads = (f"input {low.shape[1]}×{low.shape[2]}", "bicubic", "model", f"truth {truth.shape[1]}×{truth.shape[2]}")
    height = 0.35 * bool(title) + 0.25 + n * (CELL + 0.15)
    fig, axes = plt.subplots(n, 4, figsize=(4 * CELL + 0.3, height), squeeze=False, layout="constrained")
    for i in range(n):
        _show(axes[i, 0], low[i])
        _show(axes[i, 1], bicubic[i], f"MAE {np.mean(np.abs(bicubic[i] - truth[i])):.2f}")
        _show(axes[i, 2], out[i], f"MAE {np.mean(np.abs(out[i] - truth[i])):.2f}")
        _show(axes[i, 3], truth[i])
    for ax, head in zip(axes[0], heads):
        ax.set_title(head, fontsize=8)
    return _finish(fig, path, title)
