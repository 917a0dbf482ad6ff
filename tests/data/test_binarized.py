"""Binarized, memory-mapped corpora (issue 20): the ids are sentencepiece's, the batches are today's,
the cache is keyed by content, and bad files are one clear line with nothing half-written used."""

from __future__ import annotations

import errno
import gzip
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import MICRO, aiayn, corpus_slice, small_tmpfs, snapshot, write_tsv
from safetensors.torch import load_file

from aiayn.corpus import builtin
from aiayn.data import (
    BatchSampler,
    DataError,
    Tokenizer,
    batch_by_tokens,
    collate,
    collate_arrays,
    filter_mask,
    filter_pairs,
    open_parallel,
    read_parallel,
    token_batches,
)
from aiayn.data import binarized as B
from aiayn.tasks import translation_data as P


@pytest.fixture(scope="module")
def tok(tmp_path_factory) -> Tokenizer:
    rows = corpus_slice("train", 2000)
    return Tokenizer.train([r[0] for r in rows] + [r[1] for r in rows],
                           tmp_path_factory.mktemp("vocab") / "spm.model", vocab_size=500)


@pytest.fixture()
def text(tmp_path) -> Path:
    return write_tsv(tmp_path / "train.tsv.gz", corpus_slice("train", 300) + [("", "vacío"), ("only source", "")])


def test_ids_round_trip_equal_sentencepiece(text, tok, tmp_path, monkeypatch):
    monkeypatch.setattr(B, "CHUNK_PAIRS", 64)  # several chunks, written in order by two worker processes
    source = open_parallel(text)
    path = B.build(source, tok, tmp_path / "c.bin", B.fingerprint(source.files), workers=2)
    corpus = B.Binarized(path)
    plain = read_parallel(text)
    assert len(corpus) == len(plain) == 302 and corpus.dtype == np.uint16
    assert [corpus.src(i).tolist() for i in range(len(corpus))] == tok.encode(plain.src)
    assert [corpus.tgt(i).tolist() for i in range(len(corpus))] == tok.encode(plain.tgt)
    assert corpus.header["vocab_sha256"] == tok.fingerprint() and (corpus.header["src_lang"], corpus.header["tgt_lang"]) == ("en", "es")
    one = B.build(source, tok, tmp_path / "one.bin", B.fingerprint(source.files), workers=1)
    assert one.read_bytes() == path.read_bytes()  # the worker processes change nothing
    assert not list(tmp_path.glob(".*.tmp"))
    assert isinstance(corpus.ids, np.memmap) and not corpus.ids.flags.writeable


def test_batches_equal_batch_by_tokens_on_the_builtin_corpus(tok):
    plain = read_parallel(builtin("train"))
    src, tgt = tok.encode(plain.src), tok.encode(plain.tgt)
    keep, n_empty, n_long = filter_pairs(src, tgt, 64)
    src_len = np.array([len(s) for s in src], np.int32)
    tgt_len = np.array([len(t) for t in tgt], np.int32)
    kept, n_empty2, n_long2 = filter_mask(src_len, tgt_len, 64)
    assert kept.tolist() == keep and (n_empty2, n_long2) == (n_empty, n_long) and n_long > 0
    for max_tokens, max_sentences, multiple in [(4096, None, 1), (600, None, 1), (1000, 7, 3)]:
        today = batch_by_tokens([len(src[i]) for i in keep], [len(tgt[i]) for i in keep], max_tokens, max_sentences,
                                multiple)
        new = token_batches(src_len, tgt_len, max_tokens, max_sentences, multiple, indices=kept)
        assert list(new) == [[keep[j] for j in b] for b in today]
    for b in list(new)[:200]:
        a = collate([src[i] for i in b], [tgt[i] for i in b], 0, 1, 2)
        c = collate_arrays([np.array(src[i], np.uint16) for i in b], [np.array(tgt[i], np.uint16) for i in b], 0, 1, 2)
        assert all(torch.equal(getattr(a, f), getattr(c, f)) for f in ("src", "tgt_in", "tgt_out"))
        assert a.n_tokens == c.n_tokens


def test_sampler_clone_and_rewind_replay_the_same_batches():
    batches = token_batches(np.arange(50) % 7, np.arange(50) % 5, 12)
    sampler = BatchSampler(batches, seed=3)
    [next(sampler) for _ in range(len(batches) + 2)]  # into the second epoch
    taken = next(sampler)
    ahead = sampler.clone()
    ahead.rewind_one()
    assert next(ahead) == taken and [next(ahead) for _ in range(5)] == [next(sampler) for _ in range(5)]


def test_vocabulary_from_the_stream_is_todays(tmp_path):
    text = write_tsv(tmp_path / "t.tsv.gz", corpus_slice("train", 500))
    plain = read_parallel(text)
    today = Tokenizer.train(plain.src + plain.tgt, tmp_path / "a.model", vocab_size=300)
    streamed = P.learn_vocabulary(open_parallel(text), tmp_path / "b.model", 300, seed=0)
    assert streamed.to_bytes() == today.to_bytes()


# Bad files -----------------------------------------------------------------------------------------
@pytest.fixture()
def built(text, tok, tmp_path) -> Path:
    source = open_parallel(text)
    return B.build(source, tok, tmp_path / "c.bin", B.fingerprint(source.files))


def test_truncated_file_is_one_line(built):
    data = built.read_bytes()
    built.write_bytes(data[:-10])
    with pytest.raises(DataError, match=r"is truncated \(.*delete it and binarize") as e:
        B.Binarized(built)
    assert "\n" not in str(e.value)
    built.write_bytes(data[:10])
    with pytest.raises(DataError, match="truncated"):
        B.Binarized(built)


@pytest.mark.parametrize("damage", ["past the ids", "negative length"])
def test_damaged_index_is_one_line(built, damage):
    header = B.read_header(built)
    record = header["index_offset"] + 5 * B.INDEX.itemsize  # pair 5's (src_off, tgt_off, src_len, tgt_len)
    data = bytearray(built.read_bytes())
    if damage == "past the ids":
        struct.pack_into("<i", data, record + 16, header["n_ids"])  # src_len: ends past the last id
    else:
        struct.pack_into("<i", data, record + 20, -1)
    built.write_bytes(bytes(data))
    with pytest.raises(DataError, match=r"has a damaged index \(pairs past the .* ids it holds\); delete it") as e:
        B.Binarized(built)
    assert "\n" not in str(e.value)


def test_text_edited_during_the_build_keeps_nothing(text, tok, tmp_path, monkeypatch):
    """The cache key is the text's hash taken before the build: text edited while it is read is not kept under it."""
    source = open_parallel(text)
    key = B.fingerprint(source.files)
    rows = corpus_slice("train", 300)
    rows[7] = (rows[7][0].replace("e", "a"), rows[7][1])
    encode = B._encode_chunk

    def edit_then_encode(*args):
        write_tsv(text, rows + [("", "vacío"), ("only source", "")])  # the whole text was read: edited behind it
        return encode(*args)

    monkeypatch.setattr(B, "_encode_chunk", edit_then_encode)
    with pytest.raises(DataError, match=r"train\.tsv\.gz changed while it was being binarized, so nothing was kept; "
                                        "run again once it no longer changes"):
        B.build(source, tok, tmp_path / "c.bin", key, workers=1)
    assert not (tmp_path / "c.bin").exists() and not list(tmp_path.glob(".*.tmp"))


def test_a_file_system_without_locks_still_builds(text, tok, tmp_path, monkeypatch):
    def no_locks(*args):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(B.fcntl, "flock", no_locks)
    monkeypatch.setenv("AIAYN_CACHE", str(tmp_path / "cache"))
    assert len(B.prepare(open_parallel(text), tok)) == 302


def test_foreign_file_is_one_line(tmp_path, text):
    with pytest.raises(DataError, match="is not a binarized aiayn corpus"):
        B.Binarized(text)


def test_other_version_is_one_line_and_a_stale_cache_is_rebuilt(built, text, tok, tmp_path, monkeypatch, caplog):
    data = bytearray(built.read_bytes())
    struct.pack_into("<I", data, len(B.MAGIC), B.VERSION + 1)
    built.write_bytes(bytes(data))
    with pytest.raises(DataError, match=f"version {B.VERSION + 1} of aiayn's binarized format; this aiayn reads "
                                        f"version {B.VERSION}"):
        B.Binarized(built)
    # the same in the cache: said in one warning, and rebuilt
    monkeypatch.setenv("AIAYN_CACHE", str(tmp_path / "cache"))
    source = open_parallel(text)
    cached = B.cache_path(source, tok, B.fingerprint(source.files))
    cached.parent.mkdir(parents=True)
    cached.write_bytes(bytes(data))
    corpus = B.prepare(source, tok)
    assert "rebuilding the cached ids" in caplog.text and f"version {B.VERSION + 1}" in caplog.text
    assert corpus.header["n_pairs"] == 302


def test_cache_is_keyed_by_content_and_vocabulary(text, tok, tmp_path, monkeypatch):
    monkeypatch.setenv("AIAYN_CACHE", str(tmp_path / "cache"))
    first = B.prepare(open_parallel(text), tok)
    again = B.prepare(open_parallel(text), tok)
    assert again.path == first.path
    os.utime(text, (1, 1))  # same bytes, other mtime: still the same cache
    assert B.prepare(open_parallel(text), tok).path == first.path
    rows = corpus_slice("train", 300)
    rows[150] = (rows[150][0] + "!", rows[150][1])
    write_tsv(text, rows + [("", "vacío"), ("only source", "")])  # one byte more, in the middle
    changed = B.prepare(open_parallel(text), tok)
    assert changed.path != first.path and changed.src(150).tolist() == tok.encode([rows[150][0]])[0]
    other_vocab = Tokenizer.train([r[0] for r in rows] + [r[1] for r in rows], tmp_path / "v.model", vocab_size=300)
    assert B.prepare(open_parallel(text), other_vocab).path not in (first.path, changed.path)


def test_full_disk_while_binarizing_is_one_line_and_keeps_nothing(tmp_path, tok):
    text = write_tsv(tmp_path / "big.tsv.gz", corpus_slice("train", 6000))
    before = text.read_bytes()
    with small_tmpfs(tmp_path / "disk", "64k") as disk:
        source = open_parallel(text)
        with pytest.raises(DataError, match=r"cannot write .*c\.bin: no space left on the device while binarizing") as e:
            B.build(source, tok, disk / "c.bin", B.fingerprint(source.files))
        assert "\n" not in str(e.value)
        assert list(disk.iterdir()) == []  # neither the file nor its temporaries
        assert text.read_bytes() == before


def test_full_disk_in_preprocess_names_out(tmp_path, tok):
    text = write_tsv(tmp_path / "big.tsv.gz", corpus_slice("train", 6000))
    tok.save(tmp_path / "spm.model")
    with small_tmpfs(tmp_path / "disk", "64k") as disk:  # room for the vocabulary (7 kB), not the ids (1.3 MB)
        with pytest.raises(DataError, match="no space left on the device while binarizing") as e:
            P.preprocess(str(text), None, None, None, disk / "prepared", vocab=str(tmp_path / "spm.model"))
        assert "give --out a folder with room" in str(e.value) and "AIAYN_CACHE" not in str(e.value)
        assert list(disk.iterdir()) == []


# The command line ----------------------------------------------------------------------------------
@pytest.fixture()
def cli_data(tmp_path) -> Path:
    write_tsv(tmp_path / "train.tsv.gz", corpus_slice("train", 300))
    write_tsv(tmp_path / "valid.tsv.gz", corpus_slice("valid", 10))
    (tmp_path / "micro.yaml").write_text(MICRO.replace("valid_bleu_sentences: 4", "valid_bleu_sentences: 2"))
    return tmp_path


def test_preprocess_folder_trains_like_the_text(cli_data, tok, tmp_path):
    tok.save(tmp_path / "spm.model")
    env = {"AIAYN_CACHE": str(tmp_path / "cache")}
    folder = tmp_path / "prepared"
    out = aiayn("preprocess", "--train", str(cli_data / "train.tsv.gz"), "--valid", str(cli_data / "valid.tsv.gz"),
                "--vocab", str(tmp_path / "spm.model"), "--out", str(folder), **env)
    assert "300 training pairs" in out.stdout.decode()
    meta = json.loads((folder / "aiayn-data.json").read_text())
    assert (meta["src"], meta["tgt"], meta["pairs"]) == ("en", "es", 300)
    common = ("--config", str(cli_data / "micro.yaml"), "--max-steps", "3")
    aiayn("train", "--train", str(folder), "--out", str(tmp_path / "a"), *common, **env)
    aiayn("train", "--train", str(cli_data / "train.tsv.gz"), "--valid", str(cli_data / "valid.tsv.gz"),
          "--vocab", str(tmp_path / "spm.model"), "--out", str(tmp_path / "b"), *common, **env)
    a, b = (load_file(tmp_path / x / "checkpoints" / "step-00000003.safetensors") for x in "ab")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)  # the same weights, bit for bit
    again = aiayn("preprocess", "--train", str(cli_data / "train.tsv.gz"), "--out", str(folder), check=False, **env)
    assert again.returncode != 0 and "already exists" in again.stderr.decode()


def test_prefetch_changes_nothing_and_the_filters_are_reported(tmp_path):
    """Batches collated ahead in a thread (train.prefetch 2) or at each step (0): the same training, bit for
    bit. Pairs with an empty side or longer than max_positions - 1 (127) are dropped and counted in one line."""
    rows = corpus_slice("train", 300)
    long = " ".join(r[0] for r in rows[:12])
    write_tsv(tmp_path / "train.tsv.gz", rows + [("", "vacío"), ("only source", ""), (long, long)])
    (tmp_path / "micro.yaml").write_text(MICRO)
    runs = {}
    for prefetch in (0, 2):
        runs[prefetch] = tmp_path / f"prefetch{prefetch}"
        proc = aiayn("train", "--train", str(tmp_path / "train.tsv.gz"), "--config", str(tmp_path / "micro.yaml"),
                     "--max-steps", "5", "--set", f"train.prefetch={prefetch}", "--out", str(runs[prefetch]))
        assert "training data: dropped 2 pairs with an empty side and 1 longer than 127 tokens" in proc.stderr.decode()
    a, b = (load_file(runs[p] / "checkpoints" / "step-00000005.safetensors") for p in (0, 2))
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    losses = [[e["loss"] for e in map(json.loads, (runs[p] / "log.jsonl").read_text().splitlines())
               if e["event"] == "train"] for p in (0, 2)]
    assert len(losses[0]) == 5 and losses[0] == losses[1]


def test_resume_on_changed_data_is_one_line(cli_data, tmp_path):
    env = {"AIAYN_CACHE": str(tmp_path / "cache")}
    run = tmp_path / "run"
    train = cli_data / "train.tsv.gz"
    aiayn("train", "--train", str(train), "--valid", str(cli_data / "valid.tsv.gz"), "--config",
          str(cli_data / "micro.yaml"), "--max-steps", "3", "--out", str(run), **env)
    rows = corpus_slice("train", 300)
    rows[7] = (rows[7][0].replace("e", "a"), rows[7][1])  # same pair count, same batches count: only the content differs
    write_tsv(train, rows)
    changed = train.read_bytes()
    before = snapshot(run)
    proc = aiayn("train", "--out", str(run), "--resume", "--max-steps", "5", check=False, **env)
    err = proc.stderr.decode().strip()
    assert proc.returncode != 0 and "changed since this run started" in err and len(err.splitlines()) == 1, err
    assert snapshot(run) == before and train.read_bytes() == changed


def test_a_truncated_preprocess_folder_is_one_line(cli_data, tok, tmp_path):
    tok.save(tmp_path / "spm.model")
    folder = tmp_path / "prepared"
    P.preprocess(str(cli_data / "train.tsv.gz"), None, None, None, folder, str(tmp_path / "spm.model"))
    with open(folder / "train.bin", "r+b") as f:
        f.truncate(os.path.getsize(folder / "train.bin") - 100)
    proc = aiayn("train", "--train", str(folder), "--valid", str(cli_data / "valid.tsv.gz"), "--out",
                 str(tmp_path / "run"), "--config", str(cli_data / "micro.yaml"), "--max-steps", "1", check=False)
    err = proc.stderr.decode().strip()
    assert proc.returncode != 0 and "is truncated" in err and len(err.splitlines()) == 1, err


def test_gzip_prefix_files_stream(tmp_path, tok):
    rows = corpus_slice("train", 50)
    for lang, col in (("en", 0), ("es", 1)):
        with gzip.open(tmp_path / f"c.{lang}.gz", "wt", encoding="utf-8") as f:
            f.writelines(r[col] + "\n" for r in rows)
    source = open_parallel(tmp_path / "c", "en", "es")
    assert list(source.pairs()) == rows
    shutil.copy(tmp_path / "c.es.gz", tmp_path / "d.es.gz")
    with gzip.open(tmp_path / "d.en.gz", "wt", encoding="utf-8") as f:
        f.writelines(r[0] + "\n" for r in rows[:40])
    with pytest.raises(DataError, match=r"d\.es\.gz has 50 lines but .*d\.en\.gz has 40: .* has no line 41"):
        list(open_parallel(tmp_path / "d", "en", "es").pairs())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _losses(run: Path) -> list[tuple[int, float]]:
    return [(e["step"], e["loss"]) for e in map(json.loads, (run / "log.jsonl").read_text().splitlines())
            if e["event"] == "train"]


def test_two_nodes_on_one_machine_match_one_process(cli_data, tmp_path):
    """Two torchrun agents (--nnodes 2, one process each) meeting through the c10d rendezvous on 127.0.0.1, as
    docs/gpus.md runs many machines; gloo. Each node's LOCAL_RANK 0 prepares the ids (one shared cache here, so
    the file lock lets one build). The loss of every step and the final weights equal one process's with the
    same global batch (update_freq 2)."""
    steps = 6
    env = {"AIAYN_CACHE": str(tmp_path / "cache"), "OMP_NUM_THREADS": "1"}
    common = ["--train", str(cli_data / "train.tsv.gz"), "--config", str(cli_data / "micro.yaml"), "--set",
              "model.dropout=0.0", "--set", "model.attention_bias=false", "--max-steps", str(steps)]
    aiayn("train", *common, "--update-freq", "2", "--out", str(tmp_path / "one"), **env)
    rendezvous = ["--rdzv_backend", "c10d", "--rdzv_endpoint", f"127.0.0.1:{_free_port()}", "--rdzv_id", "two-nodes"]
    nodes = [subprocess.Popen([sys.executable, "-m", "torch.distributed.run", "--nnodes", "2", "--nproc_per_node", "1",
                               *rendezvous, "-m", "aiayn", "train", *common, "--out", str(tmp_path / "two")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, **env})
             for _ in range(2)]
    for node in nodes:
        _, err = node.communicate(timeout=600)
        assert node.returncode == 0, err.decode()[-3000:]
    one, two = _losses(tmp_path / "one"), _losses(tmp_path / "two")
    assert [s for s, _ in one] == [s for s, _ in two] == list(range(1, steps + 1))
    for (step, a), (_, b) in zip(one, two):
        assert abs(a - b) <= 1e-4, (step, a, b)  # the log rounds losses to 4 decimals
    assert one[-1][1] < one[0][1]  # training moved
    a = load_file(tmp_path / "one" / "checkpoints" / f"step-{steps:08d}.safetensors")
    b = load_file(tmp_path / "two" / "checkpoints" / f"step-{steps:08d}.safetensors")
    assert a.keys() == b.keys()
    for name in a:
        torch.testing.assert_close(b[name], a[name], rtol=1e-5, atol=1e-6)
    assert len(list((tmp_path / "cache" / "corpora").glob("*.bin"))) == 1


def test_lengths_rounded_to_a_multiple_keep_the_budget_and_repeat_shapes(tok):
    """--length-multiple: every batch padded to the multiple stays within max_tokens per side, every pair is in
    one batch, the real tokens are those of exact collation, and the shapes come back (fewer distinct ones)."""
    plain = read_parallel(builtin("train"))
    src, tgt = tok.encode(plain.src), tok.encode(plain.tgt)
    src_len = np.array([len(s) for s in src], np.int32)
    tgt_len = np.array([len(t) for t in tgt], np.int32)
    kept = filter_mask(src_len, tgt_len, 64)[0]
    exact = token_batches(src_len, tgt_len, 1536, indices=kept)
    rounded = token_batches(src_len, tgt_len, 1536, indices=kept, length_multiple=8)
    assert sorted(i for b in rounded for i in b) == sorted(kept.tolist())
    shapes = set()
    for b in rounded:
        c = collate_arrays([np.array(src[i], np.uint16) for i in b], [np.array(tgt[i], np.uint16) for i in b], 0, 1,
                           2, length_multiple=8)
        e = collate_arrays([np.array(src[i], np.uint16) for i in b], [np.array(tgt[i], np.uint16) for i in b], 0, 1, 2)
        assert c.src.size(1) % 8 == 0 and c.tgt_in.size(1) % 8 == 0
        assert c.src.numel() <= 1536 and c.tgt_in.numel() <= 1536
        for f in ("src", "tgt_in", "tgt_out"):  # the exact batch, then only padding (id 0)
            a, p = getattr(e, f), getattr(c, f)
            assert torch.equal(p[:, : a.size(1)], a) and not p[:, a.size(1):].any()
        assert c.n_tokens == e.n_tokens
        shapes.add((tuple(c.src.shape), tuple(c.tgt_in.shape)))
    assert len(shapes) < len({(len(b), int(src_len[b].max()), int(tgt_len[b].max())) for b in exact}) / 4
    with pytest.raises(ValueError, match="length_multiple"):
        token_batches(src_len, tgt_len, 1536, length_multiple=0)


def test_lengths_rounded_to_a_multiple_still_group_near_equal_lengths():
    """Within a group of equal rounded lengths the pairs are ordered by their exact lengths (then index), as without
    rounding: a batch holds pairs of near-equal length, not neighbours in the corpus."""
    rng = np.random.default_rng(0)
    src_len, tgt_len = rng.integers(1, 40, 500), rng.integers(1, 40, 500)
    order = [i for b in token_batches(src_len, tgt_len, 10**6, length_multiple=8) for i in b]  # one batch: the order
    key = lambda i: ((tgt_len[i] + 8) // 8, (src_len[i] + 8) // 8, tgt_len[i], src_len[i], i)  # noqa: E731
    assert order == sorted(range(500), key=key)


def test_a_batch_padded_to_a_multiple_scores_as_the_exact_batch():
    """Padding never changes a real position: the loss sums of a batch padded to a multiple of 8 equal the exact
    batch's (float32, dropout off; the masks hide the extra source keys, causality the extra target positions)."""
    from aiayn import Transformer, TransformerConfig, label_smoothed_cross_entropy

    torch.manual_seed(0)
    model = Transformer(TransformerConfig.tiny(src_vocab_size=40, tgt_vocab_size=40, dropout=0.0)).eval()
    rng = np.random.default_rng(1)
    src = [rng.integers(3, 40, n).astype(np.uint16) for n in (5, 9, 3)]
    tgt = [rng.integers(3, 40, n).astype(np.uint16) for n in (7, 2, 10)]
    sums = []
    for multiple in (1, 8):
        b = collate_arrays(src, tgt, 0, 1, 2, length_multiple=multiple)
        with torch.no_grad():
            out = label_smoothed_cross_entropy(model(b.src, b.tgt_in), b.tgt_out, 0.1, 0)
        sums.append((out.loss.item(), out.nll.item(), int(out.n_tokens)))
    assert sums[0][2] == sums[1][2] and sums[0][:2] == pytest.approx(sums[1][:2], rel=1e-5)
