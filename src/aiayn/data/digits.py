"""8×8 handwritten digits as token sequences, for the Image Transformer experiments (Parmar et al. 2018):
class-conditional generation and 2× super-resolution (4×4 → 8×8). Data card: docs/data/digits.md.

The images are scikit-learn's ``load_digits()`` (its copy of the test set of UCI's Optical Recognition of
Handwritten Digits), which ships inside the scikit-learn wheel, so nothing is downloaded. Each pixel is
already an integer intensity 0..16 (the number of ink pixels in a 4×4 block of a 32×32 bitmap), so a
pixel is one token of a categorical vocabulary, as in the Image Transformer's categorical channel model.
An image is its 64 pixels in raster order (row by row, top to bottom, each row left to right)::

    p(0,0) p(0,1) ... p(0,7)  p(1,0) ... p(7,7)       token = intensity + 3

Token ids (fixed; a model trained on them depends on these numbers)::

    0 PAD   1 BOS   2 EOS   3 + v for intensity v = 0..16      VOCAB_SIZE = 20

Sequences produced here hold pixel tokens only; BOS/EOS (and any class conditioning) are the model's
business. The low-resolution input of super-resolution (:func:`downsample`) is a 4×4 image of the same
0..16 intensities, so its 16 tokens share the vocabulary.

Legend: N images, H = W = SIDE = 8 pixels (LOW_SIDE = 4 after :func:`downsample`), v intensity 0..16
(0 = paper, 16 = all ink), labels 0..9 (the digit drawn).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence

import numpy as np

from ..errors import UsageError
from .errors import DataError

PAD, BOS, EOS = 0, 1, 2
LEVELS = 17  # intensities 0..16
FIRST_PIXEL = 3  # the token of intensity 0
VOCAB_SIZE = FIRST_PIXEL + LEVELS  # 20
SIDE = 8
LOW_SIDE = 4
N_PIXELS = SIDE * SIDE  # 64
N_CLASSES = 10
CLASS_NAMES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
SPLITS = ("train", "valid", "test")


def pixel_token(v: int) -> int:
    """The token of intensity ``v`` (0..16); DataError if ``v`` is not one."""
    if not (float(v).is_integer() and 0 <= v < LEVELS):
        raise DataError(f"pixel intensity {v} is outside 0..{LEVELS - 1}")
    return int(v) + FIRST_PIXEL


def token_pixel(t: int) -> int:
    """The intensity (0..16) of a pixel token; ValueError for PAD, BOS, EOS or an unknown id."""
    if not FIRST_PIXEL <= t < VOCAB_SIZE:
        raise ValueError(f"token {t} is not a pixel (pixels are {FIRST_PIXEL}..{VOCAB_SIZE - 1})")
    return int(t) - FIRST_PIXEL


def image_tokens(img: np.ndarray) -> list[int]:
    """The 64 pixel tokens of one (8, 8) image of integer intensities 0..16, in raster order; DataError
    for another shape or a value that is not an integer 0..16 (integral floats, as sklearn gives, are fine)."""
    arr = np.asarray(img)
    if arr.shape != (SIDE, SIDE):
        raise DataError(f"an image must be {SIDE}x{SIDE} pixels, not shape {arr.shape}")
    if arr.size and not (np.all(arr == np.round(arr)) and arr.min() >= 0 and arr.max() < LEVELS):
        raise DataError(f"pixel intensities must be integers 0..{LEVELS - 1}, "
                        f"got values {arr.min()}..{arr.max()}")
    return (arr.astype(np.int64).reshape(-1) + FIRST_PIXEL).tolist()


def tokens_image(tokens: Sequence[int] | np.ndarray) -> np.ndarray:
    """The (8, 8) int64 image of a token sequence such as a model generated, in raster order.

    Generation may stop early or emit a special token where a pixel belongs, so this is lenient:
    one leading BOS is skipped and the sequence ends at the first EOS; the token at position i after
    that is pixel i, a PAD or BOS there gives intensity 0, and when fewer than 64 positions remain
    the missing pixels are 0 (paper). ValueError for an id outside 0..VOCAB_SIZE-1 or for more than
    64 positions (a sequence that does not fit one image).
    """
    seq = [int(t) for t in np.asarray(tokens).reshape(-1)]
    bad = [t for t in seq if not 0 <= t < VOCAB_SIZE]
    if bad:
        raise ValueError(f"token {bad[0]} is outside the vocabulary 0..{VOCAB_SIZE - 1}")
    if seq and seq[0] == BOS:
        seq = seq[1:]
    if EOS in seq:
        seq = seq[: seq.index(EOS)]
    if len(seq) > N_PIXELS:
        raise ValueError(f"{len(seq)} tokens do not fit one {SIDE}x{SIDE} image ({N_PIXELS} pixels)")
    out = np.zeros(N_PIXELS, dtype=np.int64)
    for i, t in enumerate(seq):
        out[i] = t - FIRST_PIXEL if t >= FIRST_PIXEL else 0
    return out.reshape(SIDE, SIDE)


# ---- the data and its split -----------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _all_digits() -> tuple[np.ndarray, np.ndarray]:
    """All 1,797 images (N, 8, 8) int64 and labels (N,) int64, in sklearn's order; read-only."""
    from sklearn.datasets import load_digits

    data = load_digits()
    images = np.asarray(data.images)
    ints = images.astype(np.int64)
    if not (np.array_equal(ints, images) and ints.min() >= 0 and ints.max() < LEVELS):
        raise DataError(f"sklearn's digits are not integers 0..{LEVELS - 1}; this scikit-learn's copy differs")
    labels = np.asarray(data.target, dtype=np.int64)
    for a in (ints, labels):
        a.setflags(write=False)
    return ints, labels


def _split_of_image(img: np.ndarray) -> str:
    """The split of one (8, 8) image from the SHA-256 of its 64 intensities as bytes (uint8, raster order)."""
    digest = hashlib.sha256(np.asarray(img, dtype=np.uint8).tobytes()).digest()
    bucket = int.from_bytes(digest[:8], "big") % 100
    return "train" if bucket < 80 else "valid" if bucket < 90 else "test"


def split_of(index: int) -> str:
    """'train', 'valid' or 'test' for image ``index`` of sklearn's digits: about 80/10/10, from a SHA-256
    of the image's 64 intensities as bytes (uint8, raster order), first 8 bytes big-endian, mod 100:
    < 80 train, < 90 valid, else test.

    The hash is of the pixels, not the index, so the split never depends on the order of the data, and
    images that are byte-for-byte equal always share a split. DataError for an index out of range.
    """
    images, _ = _all_digits()
    if not 0 <= index < len(images):
        raise DataError(f"digit index {index} is outside 0..{len(images) - 1}")
    return _split_of_image(images[index])


@functools.lru_cache(maxsize=None)
def _split_arrays(split: str) -> tuple[np.ndarray, np.ndarray]:
    images, labels = _all_digits()
    keep = np.array([_split_of_image(img) == split for img in images], dtype=bool)
    return images[keep], labels[keep]


def load_digits_split(split: str) -> tuple[np.ndarray, np.ndarray]:
    """(images (N, 8, 8) int64 0..16, labels (N,) int64 0..9) of one split, in sklearn's order.

    Computed once per process (cached); each call returns fresh copies, free to modify.
    DataError for a split other than 'train', 'valid' or 'test'.
    """
    if split not in SPLITS:
        raise DataError(f"unknown split {split!r}: use one of {', '.join(SPLITS)}")
    images, labels = _split_arrays(split)
    return images.copy(), labels.copy()


# ---- super-resolution -----------------------------------------------------------------------------

def downsample(images: np.ndarray, factor: int = 2) -> np.ndarray:
    """The (..., 8/factor, 8/factor) int64 images of ``images`` (..., 8, 8): the mean of each
    factor×factor block of intensities, rounded to the nearest integer with ties to even (numpy's
    ``rint``: 2.5 → 2, 3.5 → 4), so still 0..16 and the same vocabulary. With factor 2 an 8×8 digit
    becomes the 4×4 input of super-resolution. ValueError if ``factor`` does not divide 8.
    """
    arr = np.asarray(images, dtype=np.float64)
    if arr.ndim < 2 or arr.shape[-2:] != (SIDE, SIDE):
        raise ValueError(f"images must end in ({SIDE}, {SIDE}), not shape {arr.shape}")
    if factor < 1 or SIDE % factor:
        raise ValueError(f"factor {factor} does not divide {SIDE}")
    side = SIDE // factor
    blocks = arr.reshape(*arr.shape[:-2], side, factor, side, factor)
    return np.rint(blocks.mean(axis=(-3, -1))).astype(np.int64)


def bicubic_upsample(low: np.ndarray) -> np.ndarray:
    """The (N, 8, 8) float64 bicubic enlargement of (N, s, s) low-resolution images (s = 4: 2×), clamped
    to 0..16: the baseline a super-resolution model must beat. Uses torch's ``interpolate(mode="bicubic",
    align_corners=False)`` (Keys' cubic with a = -0.75, edge pixels repeated), which can overshoot near
    strong edges; hence the clamp. A single (s, s) image gives one (8, 8) image.
    """
    import torch
    import torch.nn.functional as F

    arr = np.asarray(low, dtype=np.float64)
    single = arr.ndim == 2
    if single:
        arr = arr[None]
    if arr.ndim != 3 or arr.shape[1] != arr.shape[2] or SIDE % arr.shape[1]:
        raise ValueError(f"low-resolution images must be (N, s, s) with s dividing {SIDE}, not {arr.shape}")
    up = F.interpolate(torch.from_numpy(arr)[:, None], size=(SIDE, SIDE), mode="bicubic", align_corners=False)
    out = up[:, 0].clamp(0, LEVELS - 1).numpy()
    return out[0] if single else out


# ---- class labels ---------------------------------------------------------------------------------

def parse_class(text: str) -> int:
    """The digit 0..9 named by ``text``: '0'..'9' or its English word ('three'), case and surrounding
    spaces ignored; UsageError (one line, listing the valid labels) for anything else."""
    key = str(text).strip().lower()
    if len(key) == 1 and key in "0123456789":
        return int(key)
    if key in CLASS_NAMES:
        return CLASS_NAMES.index(key)
    raise UsageError(f"{text!r} is not a digit class: use 0..9 or one of {', '.join(CLASS_NAMES)}")
