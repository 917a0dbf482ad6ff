"""The Image Transformer in the studio (issue 45; Parmar et al. 2018, arXiv 1802.05751), over
``inference.image_views``: three views of a digits or superres model (an ``inference.image_views.ImageModel``).

POST /api/digit {"label": 3 | null, "seed": 1, "temperature": 1.0, "top_p": 1.0}
     -> {"pixels" (64, raster order), "probabilities", "image" (8 × 8), "label", "conditional", "side", "levels"}
POST /api/superres {"index": 0} -> {"low" (4 × 4), "output", "truth", "bicubic", "mae_model", "mae_bicubic", "label"}
POST /api/pixel_attention {"pixels": 64 intensities 0..16 (flat or 8 × 8), "index": 20, "layer": 0, "head": 0,
     "label": null, "low": null} -> {"weights" (64), "bos", "visible", "query_block", "memory_block" (each
     {"pixels", "spans", "bos"}), "block", "memory", "attention", "layers", "heads", "architecture"}
"""

from __future__ import annotations

from typing import Any

from ...data import digits
from ...inference.image_views import ImageModel, generate_digit, pixel_attention, super_resolve
from ..requests import RequestError
from .fields import View, fields, grid, integer, number


def offered_digits(subject) -> bool:
    """Digits models (decoder-only, pixel by pixel)."""
    return isinstance(subject, ImageModel) and subject.model.architecture == "decoder_only"


def offered_superres(subject) -> bool:
    """Super-resolution models (a 4 × 4 digit in, 8 × 8 out: an encoder-decoder over pixels)."""
    return isinstance(subject, ImageModel) and subject.model.architecture == "transformer"


def offered_images(subject) -> bool:
    """Digits and super-resolution models (the Image Transformer's pixels)."""
    return isinstance(subject, ImageModel)


def _label(data: dict[str, Any]) -> int | None:
    return integer(data, "label", 0, 9, optional=True)


def parse_digit(data, defaults, limits):
    fields(data, ("label", "seed", "temperature", "top_p"))
    return "", {"label": _label(data), "seed": integer(data, "seed", 0, 2**31 - 1, 1),
                "temperature": number(data, "temperature", 0, 5, 1.0, lo_open=True),
                "top_p": number(data, "top_p", 0, 1, 1.0, lo_open=True)}


def compute_digit(subject: ImageModel, text: str, label: int | None, seed: int, temperature: float,
                  top_p: float) -> dict[str, Any]:
    return generate_digit(subject.model, label, seed, temperature, top_p=top_p)


def parse_superres(data, defaults, limits):
    fields(data, ("index",))
    return "", {"index": integer(data, "index", 0, 1_000_000, 0)}


def compute_superres(subject: ImageModel, text: str, index: int) -> dict[str, Any]:
    return super_resolve(subject.model, index)


PIXEL_FIELDS = ("pixels", "index", "layer", "head", "label", "low")


def parse_pixel(data, defaults, limits):
    fields(data, PIXEL_FIELDS)
    if "pixels" not in data:
        raise RequestError(422, "pixels is missing: send the 64 intensities (0..16) of the digit shown, "
                                'e.g. {"pixels": [0, 0, 5, ...], "index": 20}')
    return "", {"pixels": grid(data, "pixels", digits.SIDE, digits.LEVELS - 1),
                "index": integer(data, "index", 0, digits.N_PIXELS - 1, 0),
                "layer": integer(data, "layer", 0, 63, 0), "head": integer(data, "head", 0, 63, 0),
                "label": _label(data), "low": grid(data, "low", digits.LOW_SIDE, digits.LEVELS - 1)}


def compute_pixel(subject: ImageModel, text: str, pixels, index: int, layer: int, head: int, label: int | None,
                  low) -> dict[str, Any]:
    classes = getattr(subject.model.config, "n_classes", 0) if subject.model.architecture == "decoder_only" else 0
    if (label is not None) != (classes > 0):
        raise RequestError(422, f"this model is class-conditional: send the label (0..{classes - 1}) of the digit shown"
                           if classes else "this model takes no class: send label null")
    return pixel_attention(subject.model, pixels, index, layer, head, label=label, low=low)


DIGIT = View("digit", ("label", "seed", "temperature", "top_p"), offered_digits, parse_digit, compute_digit)
SUPERRES = View("superres", ("index",), offered_superres, parse_superres, compute_superres)
PIXEL = View("pixel_attention", PIXEL_FIELDS, offered_images, parse_pixel, compute_pixel)
VIEWS = (DIGIT, SUPERRES, PIXEL)
