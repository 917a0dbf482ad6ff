"""The beam trace (the studio's beam view) is recorded by the real search: its n-best is what
`aiayn translate --nbest` prints, and each step's fates add up."""

from __future__ import annotations

import math

import pytest
from conftest import aiayn

from aiayn.decoding.beam import length_penalty
from aiayn.decoding.options import DecodeOptions
from aiayn.inference.translator import Translator

LINE = "In the beginning God created the heavens and the earth."


def test_the_traces_nbest_is_what_translate_prints(trained):
    opts = DecodeOptions(beam_size=4, nbest=4, max_len_b=6)
    trace, pieces = Translator.load(trained).beam_trace(LINE, opts)
    printed = aiayn("translate", "--model", str(trained), "--beam", "4", "--nbest", "4", "--max-len-b", "6",
                    input=LINE + "\n").stdout.decode().splitlines()
    tokenizer = Translator.load(trained).tokenizer
    ours = [(tokenizer.decode([h.tokens])[0], h.score) for h in trace.nbest[0]]
    assert [row.split("\t")[2] for row in printed] == [text for text, _ in ours]
    assert [float(row.split("\t")[1]) for row in printed] == pytest.approx([score for _, score in ours], abs=1e-4)
    assert len(pieces) == tokenizer.vocab_size


def test_each_step_keeps_k_beams_and_finishes_what_the_nbest_holds(trained):
    k = 3
    trace, _ = Translator.load(trained).beam_trace(LINE, DecodeOptions(beam_size=k, nbest=k, max_len_b=5))
    steps = trace.steps
    assert [s["step"] for s in steps] == list(range(len(steps))) and all(s["sentence"] == 0 for s in steps)
    for now, nxt in zip(steps, steps[1:]):
        kept = [c for c in now["candidates"] if c["fate"] == "kept"]
        assert len(kept) == k == len(nxt["beams"])
        assert sorted(b["log_prob"] for b in nxt["beams"]) == pytest.approx(sorted(c["log_prob"] for c in kept))
    for s in steps:
        scores = [c["log_prob"] for c in s["candidates"]]
        assert len(scores) == 2 * k and scores == sorted(scores, reverse=True)  # the top 2K, best first
        assert s["length_penalty"] == pytest.approx(length_penalty(s["step"] + 1, 0.6))
        for c in s["candidates"]:
            if c["fate"] == "finished":
                assert c["score"] == pytest.approx(c["log_prob"] / s["length_penalty"])
    finished = sorted((c["score"] for s in steps for c in s["candidates"] if c["fate"] == "finished"), reverse=True)
    assert [h.score for h in trace.nbest[0]] == pytest.approx(finished[:k])
    assert all(math.isfinite(b["log_prob"]) for s in steps for b in s["beams"])


def test_greedy_has_no_beams_to_trace(trained):
    with pytest.raises(ValueError, match="beam of 2 or more"):
        Translator.load(trained).beam_trace(LINE, DecodeOptions(beam_size=1))
