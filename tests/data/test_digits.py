"""The 8×8 digits data layer (aiayn.data.digits) and its pictures (aiayn.plots.images).

Expected values come from independent computations in the test (hashlib on the raw pixels, block means
by hand), not from the module under test.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from sklearn.datasets import load_digits

from aiayn.data import DataError
from aiayn.data.digits import (
    BOS,
    CLASS_NAMES,
    EOS,
    LEVELS,
    N_CLASSES,
    PAD,
    SIDE,
    SPLITS,
    VOCAB_SIZE,
    bicubic_upsample,
    downsample,
    image_tokens,
    load_digits_split,
    parse_class,
    pixel_token,
    split_of,
    token_pixel,
    tokens_image,
)
from aiayn.errors import UserError
from aiayn.plots.images import plot_digit_grid, plot_super_resolution


@pytest.fixture(scope="module")
def sk():
    d = load_digits()
    return d.images, d.target


# ---- tokens -------------------------------------------------------------------------------------

def test_constants():
    assert (PAD, BOS, EOS, LEVELS, VOCAB_SIZE, SIDE, N_CLASSES) == (0, 1, 2, 17, 20, 8, 10)


def test_pixel_token_round_trip():
    assert [pixel_token(v) for v in range(17)] == list(range(3, 20))
    assert all(token_pixel(pixel_token(v)) == v for v in range(17))
    for t in (PAD, BOS, EOS, VOCAB_SIZE, -1):
        with pytest.raises(ValueError):
            token_pixel(t)
    for v in (-1, 17, 2.5):
        with pytest.raises(DataError):
            pixel_token(v)


def test_image_tokens_round_trip_in_raster_order(sk):
    images, _ = sk
    img = images[5]  # float64 0..16, as sklearn gives it
    toks = image_tokens(img)
    assert len(toks) == 64
    assert toks[0] == int(img[0, 0]) + 3 and toks[1] == int(img[0, 1]) + 3 and toks[8] == int(img[1, 0]) + 3
    back = tokens_image(toks)
    assert back.shape == (8, 8) and back.dtype == np.int64
    np.testing.assert_array_equal(back, img.astype(np.int64))
    # a leading BOS and a trailing EOS, as a model's sequence has them, change nothing
    np.testing.assert_array_equal(tokens_image([BOS] + toks + [EOS]), back)


def test_image_tokens_rejects_bad_images():
    with pytest.raises(DataError):
        image_tokens(np.zeros((4, 4)))
    with pytest.raises(DataError):
        image_tokens(np.full((8, 8), 17))
    with pytest.raises(DataError):
        image_tokens(np.full((8, 8), 0.5))


def test_tokens_image_fills_missing_pixels_with_zero():
    seven = pixel_token(7)
    # stops early at EOS after 10 pixels; a PAD where pixel 3 belongs
    img = tokens_image([BOS] + [seven] * 3 + [PAD] + [seven] * 6 + [EOS] + [seven] * 20)
    flat = img.reshape(-1)
    assert flat[:3].tolist() == [7, 7, 7] and flat[3] == 0 and flat[4:10].tolist() == [7] * 6
    assert not flat[10:].any()
    assert not tokens_image([]).any()
    with pytest.raises(ValueError):
        tokens_image([seven] * 65)
    with pytest.raises(ValueError):
        tokens_image([VOCAB_SIZE])


# ---- split --------------------------------------------------------------------------------------

def _independent_split(img: np.ndarray) -> str:
    bucket = int.from_bytes(hashlib.sha256(bytes(int(v) for v in img.flatten())).digest()[:8], "big") % 100
    return "train" if bucket < 80 else "valid" if bucket < 90 else "test"


def test_split_of_is_the_hash_of_the_pixels(sk):
    images, _ = sk
    # computed once with hashlib on the raw pixels (buckets 32, 84, 92), hard-coded so that a change shows
    assert (split_of(0), split_of(3), split_of(17)) == ("train", "valid", "test")
    for i in (0, 3, 17, 100, 1796):
        assert split_of(i) == _independent_split(images[i])
    with pytest.raises(DataError):
        split_of(1797)


def test_splits_partition_the_data_in_sklearn_order(sk):
    images, labels = sk
    expected = {s: [i for i in range(len(images)) if _independent_split(images[i]) == s] for s in SPLITS}
    total = 0
    for s in SPLITS:
        x, y = load_digits_split(s)
        assert x.dtype == np.int64 and y.dtype == np.int64 and x.shape[1:] == (8, 8) and len(x) == len(y)
        np.testing.assert_array_equal(x, images[expected[s]].astype(np.int64))
        np.testing.assert_array_equal(y, labels[expected[s]])
        assert set(np.unique(y)) == set(range(10))
        total += len(x)
    assert total == 1797
    assert [len(expected[s]) for s in SPLITS] == [1437, 161, 199]  # the counts in docs/data/digits.md
    with pytest.raises(DataError):
        load_digits_split("dev")


def test_load_digits_split_returns_copies():
    x, _ = load_digits_split("valid")
    x[:] = 0
    assert load_digits_split("valid")[0].any()


def test_no_exact_duplicates(sk):
    images, _ = sk
    assert len({bytes(int(v) for v in img.flatten()) for img in images}) == 1797  # as docs/data/digits.md says


# ---- super-resolution ---------------------------------------------------------------------------

def test_downsample_is_the_rounded_2x2_block_mean():
    img = np.zeros((8, 8), dtype=np.int64)
    img[0:2, 0:2] = [[1, 2], [3, 4]]      # mean 2.5  -> 2 (ties to even)
    img[0:2, 2:4] = [[3, 4], [3, 4]]      # mean 3.5  -> 4 (ties to even)
    img[0:2, 4:6] = [[16, 16], [16, 15]]  # mean 15.75 -> 16
    img[0:2, 6:8] = [[0, 0], [0, 1]]      # mean 0.25 -> 0
    img[2:4, 0:2] = [[9, 9], [9, 10]]     # mean 9.25 -> 9
    img[2:4, 2:4] = [[5, 6], [6, 6]]      # mean 5.75 -> 6
    img[6:8, 6:8] = 16                     # -> 16
    expected = np.array([[2, 4, 16, 0],
                         [9, 6, 0, 0],
                         [0, 0, 0, 0],
                         [0, 0, 0, 16]])
    low = downsample(img)
    assert low.dtype == np.int64
    np.testing.assert_array_equal(low, expected)
    np.testing.assert_array_equal(downsample(np.stack([img, img])), np.stack([expected, expected]))
    np.testing.assert_array_equal(downsample(img, factor=8), [[round(img.mean())]])
    with pytest.raises(ValueError):
        downsample(img, factor=3)


def test_bicubic_of_a_constant_image_is_that_constant():
    low = np.full((2, 4, 4), 7)
    up = bicubic_upsample(low)
    assert up.shape == (2, 8, 8)
    np.testing.assert_allclose(up, 7.0, atol=1e-9)
    # a checkerboard overshoots in bicubic; the result is clamped to 0..16
    board = (np.indices((4, 4)).sum(0) % 2) * 16
    up = bicubic_upsample(board)
    assert up.shape == (8, 8) and up.min() >= 0 and up.max() <= 16


# ---- class labels -------------------------------------------------------------------------------

def test_parse_class():
    assert [parse_class(str(d)) for d in range(10)] == list(range(10))
    assert [parse_class(w) for w in CLASS_NAMES] == list(range(10))
    assert parse_class(" Three ") == 3


@pytest.mark.parametrize("text", ["10", "ten", "", "-1", "three\nfour", "3.0"])
def test_parse_class_errors_are_one_line(text):
    with pytest.raises(UserError) as err:
        parse_class(text)
    message = str(err.value)
    assert "\n" not in message and "0..9" in message and "nine" in message


# ---- pictures -----------------------------------------------------------------------------------

def test_plots_write_pngs(tmp_path, sk):
    images, _ = sk
    grid = plot_digit_grid(images[:6], tmp_path / "grid.png", rows_labels=["a", "b"], title="t")
    assert grid.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError):
        plot_digit_grid(images[:5], tmp_path / "bad.png", rows_labels=["a", "b"])
    truth = images[:2]
    low = downsample(truth)
    up = bicubic_upsample(low)
    sr = plot_super_resolution(low, np.rint(up), truth, up, tmp_path / "sr.png", title="t")
    assert sr.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
