"""Data (§5.1): reading parallel corpora, the joint sentencepiece vocabulary, token-budget batches."""

import gzip
import pickle
from pathlib import Path

import numpy as np
import pytest
import torch

from aiayn.corpus import builtin
from aiayn.data import (
    Batch,
    BatchSampler,
    DataError,
    ParallelCorpus,
    Tokenizer,
    batch_by_tokens,
    collate,
    filter_pairs,
    open_parallel,
    read_parallel,
    read_text_lines,
)

VALID = builtin("valid")  # the shipped copy of ../shared/data/bible-en-es


def write(path: Path, text: str | bytes) -> Path:
    data = text.encode("utf-8") if isinstance(text, str) else text
    path.write_bytes(gzip.compress(data, mtime=0) if path.name.endswith(".gz") else data)
    return path


def data_error(fn, *args, **kwargs) -> str:
    """The DataError message of fn(*args), checked to be one line."""
    with pytest.raises(DataError) as info:
        fn(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.fixture(scope="module")
def valid() -> ParallelCorpus:
    return read_parallel(VALID)


@pytest.fixture(scope="module")
def tokenizer(valid, tmp_path_factory) -> Tokenizer:
    return Tokenizer.train(valid.src + valid.tgt, tmp_path_factory.mktemp("spm") / "spm.model", vocab_size=1000)


# Reading ---------------------------------------------------------------------------------------
def test_lines_lose_only_their_line_ending(tmp_path):
    path = write(tmp_path / "a.txt", "\ufeffone\r\n  two \n\nthree\r")
    assert read_text_lines(path) == ["one", "  two ", "", "three\r"]
    assert read_text_lines(write(tmp_path / "a.txt.gz", "x\ny\n")) == ["x", "y"]


def test_bad_utf8_names_line_and_byte(tmp_path):
    path = write(tmp_path / "train.en", b"fine\nab\xffc\n")
    message = data_error(read_text_lines, path)
    assert "train.en: line 2, byte 3" in message and "0xff" in message and "UTF-8" in message


def test_missing_file(tmp_path):
    assert data_error(read_text_lines, tmp_path / "nope.txt") == f"no such file: {tmp_path / 'nope.txt'}"
    assert "no such file" in data_error(read_parallel, tmp_path / "nope.tsv")
    assert "no such file" in data_error(read_parallel, tmp_path / "train", "en", "es")


def test_tsv_and_prefix_forms_give_the_same_corpus(tmp_path):
    write(tmp_path / "c.tsv", "ref\ten\tes\nr1\tHello.\tHola.\nr2\t\tvacío\nr3\tYes.\tSí.\n")
    write(tmp_path / "c.en.gz", "Hello.\n\nYes.\n")
    write(tmp_path / "c.es", "Hola.\r\nvacío\r\nSí.\r\n")
    from_tsv, from_prefix = read_parallel(tmp_path / "c.tsv"), read_parallel(tmp_path / "c", "en", "es")
    assert from_tsv == from_prefix == ParallelCorpus(["Hello.", "", "Yes."], ["Hola.", "vacío", "Sí."], "en", "es")
    assert len(from_tsv) == 3
    reverse = read_parallel(tmp_path / "c.tsv", src_lang="es")
    assert (reverse.src_lang, reverse.tgt_lang, reverse.src[0], reverse.tgt[0]) == ("es", "en", "Hola.", "Hello.")


def test_unknown_language_lists_the_columns(tmp_path):
    path = write(tmp_path / "c.tsv.gz", "ref\ten\tes\nr1\ta\tb\n")
    assert "no column 'fr'; the header's columns are ref, en, es" in data_error(read_parallel, path, "fr", "es")
    one_language = write(tmp_path / "one.tsv", "ref\ten\nr\ta\n")
    assert "cannot pick two language columns; the header's columns are ref, en" in data_error(read_parallel, one_language)


def test_wrong_field_count_names_the_line(tmp_path):
    path = write(tmp_path / "c.tsv", "ref\ten\tes\nr1\ta\tb\nr2\ta\n")
    assert data_error(read_parallel, path) == f"{path}: line 3 has 2 fields, the header has 3"


def test_files_of_different_lengths_name_the_missing_line(tmp_path):
    write(tmp_path / "train.en", "a\nb\nc\n")
    write(tmp_path / "train.es", "x\n")
    message = data_error(read_parallel, tmp_path / "train", "en", "es")
    assert message.startswith(f"{tmp_path / 'train.en'} has 3 lines but {tmp_path / 'train.es'} has 1:")
    assert "has no line 2" in message


def test_empty_corpus_and_missing_languages(tmp_path):
    assert "no sentence pairs" in data_error(read_parallel, write(tmp_path / "h.tsv", "ref\ten\tes\n"))
    assert "header" in data_error(read_parallel, write(tmp_path / "e.tsv", ""))
    write(tmp_path / "p.en", "")
    write(tmp_path / "p.es", "")
    assert "no sentence pairs" in data_error(read_parallel, tmp_path / "p", "en", "es")
    assert "both the source and the target language" in data_error(read_parallel, tmp_path / "p")


def test_real_validation_slice(valid):
    assert (len(valid), valid.src_lang, valid.tgt_lang) == (618, "en", "es")
    assert valid.src[0].startswith("In the days when the judges judged")
    assert valid.tgt[0].startswith("Y aconteció en los días")


# Tokenizer ---------------------------------------------------------------------------------------
def test_training_is_deterministic_and_atomic(valid, tokenizer, tmp_path):
    again = Tokenizer.train(valid.src + valid.tgt, tmp_path / "run" / "spm.model", vocab_size=1000)
    assert (tmp_path / "run" / "spm.model").read_bytes() == again.to_bytes() == tokenizer.to_bytes()
    assert again.fingerprint() == tokenizer.fingerprint()
    assert [p.name for p in (tmp_path / "run").iterdir()] == ["spm.model"]  # no temporary left behind


def test_special_ids(tokenizer):
    assert (tokenizer.pad_id, tokenizer.bos_id, tokenizer.eos_id, tokenizer.unk_id) == (0, 1, 2, 3)
    assert tokenizer.vocab_size == 1000
    assert tokenizer.encode_as_pieces("Ruth")[0].startswith("▁")


def test_round_trip_is_exact_on_the_valid_set(valid, tokenizer):
    lines = valid.src + valid.tgt
    ids = tokenizer.encode(lines)
    assert all(3 < i < tokenizer.vocab_size for seq in ids for i in seq)  # no unk, no special id
    assert tokenizer.decode(ids) == lines
    wrapped = [[tokenizer.bos_id, *seq, tokenizer.eos_id, tokenizer.pad_id] for seq in ids[:5]]
    assert tokenizer.decode(wrapped) == lines[:5]


def test_unseen_characters_are_unk(tokenizer):
    (ids,) = tokenizer.encode(["Ruth 雪"])
    assert ids[-1] == tokenizer.unk_id and tokenizer.unk_id not in ids[:-1]


def test_load_from_bytes_and_pickle_agree(tokenizer, tmp_path):
    tokenizer.save(tmp_path / "m.model")
    copies = Tokenizer.load(tmp_path / "m.model"), Tokenizer.from_bytes(tokenizer.to_bytes()), pickle.loads(pickle.dumps(tokenizer))
    for other in copies:
        assert other.fingerprint() == tokenizer.fingerprint()
        assert other.encode(["Naomi said"]) == tokenizer.encode(["Naomi said"])


def test_tokenizer_errors(valid, tmp_path):
    assert "no such file" in data_error(Tokenizer.load, tmp_path / "none.model")
    assert "not a sentencepiece model" in data_error(Tokenizer.load, write(tmp_path / "bad.model", b"not a model"))
    message = data_error(Tokenizer.train, valid.src[:50], tmp_path / "big.model", vocab_size=50000)
    assert "too large" in message and "--vocab-size" in message
    assert not (tmp_path / "big.model").exists()


# Batching -------------------------------------------------------------------------------------
def test_collate_pads_on_the_right_with_bos_and_eos():
    batch = collate([[5, 6, 7], [8]], [[9], [10, 11]], pad_id=0, bos_id=1, eos_id=2)
    assert batch.src.tolist() == [[5, 6, 7, 2], [8, 2, 0, 0]]
    assert batch.tgt_in.tolist() == [[1, 9, 0], [1, 10, 11]]
    assert batch.tgt_out.tolist() == [[9, 2, 0], [10, 11, 2]]
    assert batch.n_tokens == 5 == int((batch.tgt_out != 0).sum())
    assert batch.src.dtype == torch.long
    moved = batch.to("cpu")
    assert isinstance(moved, Batch) and torch.equal(moved.tgt_out, batch.tgt_out)


@pytest.mark.parametrize("max_sentences,multiple", [(None, 1), (7, 1), (None, 4)])
def test_batches_keep_the_padded_budget_and_cover_each_pair_once(max_sentences, multiple):
    rng = np.random.default_rng(0)
    src, tgt = rng.integers(0, 60, 2000).tolist(), rng.integers(0, 60, 2000).tolist()
    src[3], tgt[4] = 300, 500  # longer than max_tokens alone
    batches = batch_by_tokens(src, tgt, max_tokens=256, max_sentences=max_sentences, required_multiple=multiple)
    assert sorted(i for b in batches for i in b) == list(range(2000))
    for b in batches:
        if len(b) > 1:
            assert len(b) * max(src[i] + 1 for i in b) <= 256 and len(b) * max(tgt[i] + 1 for i in b) <= 256
        assert max_sentences is None or len(b) <= max_sentences
    assert [3] in batches and [4] in batches
    if multiple > 1:
        # Trimmed to a multiple, except leftovers too few to make one (next to an oversize pair, at the end).
        assert all(len(b) < multiple for b in batches if len(b) % multiple)
        assert sum(len(b) == multiple * (len(b) // multiple) > 0 for b in batches) > 0.9 * len(batches)
    flat = [tgt[i] for b in batches for i in b]
    assert flat == sorted(flat)  # similar lengths together
    assert batches == batch_by_tokens(src, tgt, 256, max_sentences, multiple)


def test_filter_pairs_counts_what_it_drops():
    src = [[5], [], [5] * 9, [5] * 10, [5]]
    tgt = [[6], [6], [6], [6], [6] * 10]
    assert filter_pairs(src, tgt, max_positions=10) == ([0, 2], 1, 2)


def test_sampler_resumes_exactly():
    batches = [[i] for i in range(10)]
    full = BatchSampler(batches, seed=3)
    expected = [next(full) for _ in range(7 + 20)]
    assert sorted(expected[:10]) == batches and expected[:10] != expected[10:20]  # epochs reshuffle
    first = BatchSampler(batches, seed=3)
    assert [next(first) for _ in range(7)] == expected[:7]
    state = first.state_dict()
    assert state == {"epoch": 0, "position": 7}
    resumed = BatchSampler(batches, seed=3)
    resumed.load_state_dict(state)
    assert [next(resumed) for _ in range(20)] == expected[7:]
    assert resumed.epoch == 2 and resumed.batches_per_epoch == 10
    at_boundary = BatchSampler(batches, seed=3)
    at_boundary.load_state_dict({"epoch": 0, "position": 10})  # saved right after the last batch of epoch 0
    assert next(at_boundary) == expected[10] and at_boundary.epoch == 1


def test_sampler_shards_without_overlap():
    batches = [[i] for i in range(11)]
    for epoch in range(3):
        whole, rank0, rank1 = (BatchSampler(batches, 5, rank=r, world_size=w) for r, w in ((0, 1), (0, 2), (1, 2)))
        for s in (whole, rank0, rank1):
            s.load_state_dict({"epoch": epoch, "position": 0})
        order = [next(whole)[0] for _ in range(11)]
        mine0, mine1 = [next(rank0)[0] for _ in range(5)], [next(rank1)[0] for _ in range(5)]
        assert rank0.batches_per_epoch == rank1.batches_per_epoch == 5
        assert mine0 == order[0:10:2] and mine1 == order[1:10:2]  # order[10] is the dropped tail
        assert not set(mine0) & set(mine1)
    unshuffled = BatchSampler(batches, 0, shuffle=False)
    assert [next(unshuffled) for _ in range(12)] == batches + batches[:1]


GOOD_TEXTS = ["ref\ten\tes\n1\ta b\tc d\n2\té\tñ\n", "ref\ten\tes\n1\ta\tb\n2\tc\td", "\ufeffref\ten\tes\r\n1\ta\tb\r\n",
              "ref\ten\tes\n" + "".join(f"{i}\tword {i}\tpalabra {i}\n" for i in range(50))]
BAD_TEXTS = ["ref\ten\tes\n1\ta\tb\n2\tc\n", "ref\ten\tes\n1\ta\tb\n\n", "ref\ten\tes\n1\ta\tb\tx\n",
             b"ref\ten\tes\n1\ta\t\xff\n", "ref\ten\tes\n"]


@pytest.mark.parametrize("chunk", [5, 1 << 24])  # lines across block boundaries, and one block
@pytest.mark.parametrize("compress", [False, True])
def test_the_quick_check_agrees_with_reading_line_by_line(tmp_path, monkeypatch, chunk, compress):
    """A good file: the quick pass counts what the line-by-line pass counts. A bad one: it doubts it,
    and the line-by-line pass names the problem."""
    from aiayn.data import parallel

    monkeypatch.setattr(parallel, "_CHUNK", chunk)
    for n, text in enumerate(GOOD_TEXTS + BAD_TEXTS):
        data = text if isinstance(text, bytes) else text.encode()
        path = tmp_path / f"c{n}.tsv{'.gz' if compress else ''}"
        path.write_bytes(gzip.compress(data) if compress else data)
        source = open_parallel(path)
        if n < len(GOOD_TEXTS):
            assert source._quick_count() == sum(1 for _ in source.pairs()) == source.check() > 0
        else:
            assert source._quick_count() in (None, 0)
            with pytest.raises(DataError):
                source.check()
    src, tgt = tmp_path / "p.en", tmp_path / "p.es"
    for src_text, tgt_text, aligned in [("a\nb\n", "c\nd", True), ("a\nb\n", "c\n", False), ("a\n", "\xff\n", False)]:
        src.write_text(src_text)
        tgt.write_bytes(tgt_text.encode("latin-1"))
        source = open_parallel(tmp_path / "p", "en", "es")
        assert source._quick_count() == (2 if aligned else None)
        if not aligned:
            with pytest.raises(DataError):
                source.check()
