"""Parsing as translation (paper §6.3): Penn Treebank trees in and out, the linearisation and its repair,
EVALB scores on hand-made trees (expected figures worked out by hand below), the synthetic treebank,
and `aiayn train --task parsing` / `evaluate` / `parse` end to end on a micro model."""

from __future__ import annotations

import dataclasses
import hashlib
import re

import pytest
from conftest import aiayn

from aiayn.app.cli import main
from aiayn.data import DataError
from aiayn.data.synthetic_treebank import SIZES, generate, synthetic_split
from aiayn.data.treebank import Tree, Vocab, delinearise, linearise, normalise, parse_trees, read_trees
from aiayn.errors import UsageError
from aiayn.metrics.evalb import score_corpus, score_tree


def tree(text: str) -> Tree:
    return parse_trees([text], "test")[0]


WSJ_LIKE = """\
( (S
    (NP-SBJ-1 (DT The) (NN dog) )
    (VP (VBD was)
      (VP (VBN seen)
        (NP (-NONE- *-1) )
        (PP-LOC (IN in)
          (NP (DT the) (NN garden) ))))
    (. .) ))
( (S (NP-SBJ (PRP It)) (VP (VBD slept)) (. .)) )
"""


# Reading and writing -------------------------------------------------------------------------
def test_trees_spanning_lines_read_write_and_normalise(tmp_path):
    path = tmp_path / "wsj.mrg"
    path.write_text(WSJ_LIKE)
    raw = read_trees(path)
    assert len(raw) == 2 and [t.line for t in raw] == [1, 9]
    assert parse_trees([str(t) for t in raw], "again") == raw  # writing then reading gives the same trees
    assert str(raw[1]) == "( (S (NP-SBJ (PRP It)) (VP (VBD slept)) (. .)))"
    # traces and the constituents left empty go, function tags are cut, the unlabelled root is dropped
    assert str(normalise(raw[0])) == ("(S (NP (DT The) (NN dog)) (VP (VBD was) (VP (VBN seen) (PP (IN in) "
                                      "(NP (DT the) (NN garden))))) (. .))")
    # a root over several constituents, or over one word, stays as TOP
    assert str(normalise(tree("( (NP (NN Yes)) (. .))"))) == "(TOP (NP (NN Yes)) (. .))"
    assert str(normalise(tree("(ROOT (UH Hello))"))) == "(TOP (UH Hello))"


@pytest.mark.parametrize("text, line, message", [
    ("(S (NP (DT the) (NN dog))\n(VP (VBD slept)))\n)", 3, "')' closes nothing"),
    ("(S (NP (DT the) (NN dog))\n\n(VP (VBD slept))", 1, "the '(' opened here is never closed"),
    ("(S (NP (NN dog)))\n(S (NP (NN cat))\n(S (VP (VBD ran)))", 2, "never closed"),
    ("(S (NP (DT the) (NN dog)))\n dog (S (VP (VBD ran)))", 2, "'dog' is outside any brackets"),
    ("(S (NP (DT the) (NN dog))\n  (VP ()))", 2, "empty brackets"),
    ("(S (NP) (VP (VBD ran)))", 1, "empty brackets (NP)"),
    ("(S (NP (DT the) dog) (VP (VBD ran)))", 1, "mixes words and brackets"),
    ("(S (NN big dog) (VP (VBD ran)))", 1, "holds several words"),
    ("(S ((NN dog)) (VP (VBD ran)))", 1, "without a label"),
])
def test_malformed_trees_are_one_line_errors_naming_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.mrg"
    path.write_text(text)
    with pytest.raises(DataError) as e:
        read_trees(path)
    assert str(e.value).startswith(f"{path}: line {line}: ") and message in str(e.value), str(e.value)
    assert "\n" not in str(e.value)


def test_empty_input_and_a_tree_of_traces_only(tmp_path):
    for text in ("", "\n  \n"):
        (tmp_path / "empty.mrg").write_text(text)
        with pytest.raises(DataError, match=r"empty\.mrg: no trees \(the input is empty\)"):
            read_trees(tmp_path / "empty.mrg")
    (tmp_path / "traces.mrg").write_text("(S (NN dog))\n( (S (NP-SBJ (-NONE- *)) ) )\n")
    with pytest.raises(DataError, match=r"traces\.mrg: line 2: the tree has no words"):
        [normalise(t, str(tmp_path / "traces.mrg")) for t in read_trees(tmp_path / "traces.mrg")]


# Linearisation ------------------------------------------------------------------------------------
GOLD = "(S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT a) (NN cat))) (. .))"


def test_linearisation_is_vinyals_with_xx_tags_and_round_trips():
    gold = tree(GOLD)
    assert " ".join(linearise(gold)) == "(S (NP XX XX )NP (VP XX (NP XX XX )NP )VP XX )S"
    assert delinearise(linearise(gold), gold.words(), gold.tags()) == (gold, 0)
    back, repairs = delinearise(linearise(gold), gold.words())  # without tags: XX on the leaves
    assert repairs == 0 and str(back) == GOLD.replace("DT", "XX").replace("NN", "XX").replace("VBD", "XX").replace(
        "(. .)", "(XX .)")
    for t in synthetic_split("train"):
        assert delinearise(linearise(t), t.words(), t.tags()) == (t, 0)


@pytest.mark.parametrize("symbols, repairs, expected", [
    # brackets left open at the end: each closed, one repair each
    # (and the word no XX took joins the top constituent: one more)
    ("(S (NP XX XX )NP (VP XX (NP XX XX", 4, GOLD),
    # a closer that closes nothing is dropped; a closer naming another label closes the open one
    (")NP (S (NP XX XX )VP (VP XX (NP XX XX )NP )VP XX )S", 2, GOLD),
    # an empty constituent is dropped; an XX beyond the last word is dropped; an unknown symbol is dropped
    ("(S (NP XX XX )NP (ADJP )ADJP (VP XX (NP XX XX )NP )VP XX XX <unk> )S", 3, GOLD),
    # words no XX took join the top constituent, at its end
    ("(S (NP XX XX )NP (VP XX )VP )S", 1, "(S (NP (DT the) (NN dog)) (VP (VBD saw)) (DT a) (NN cat) (. .))"),
    # several top constituents, or words outside any bracket, are gathered under TOP
    ("(NP XX XX )NP (VP XX (NP XX XX )NP )VP XX", 1,
     "(TOP (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT a) (NN cat))) (. .))"),
    # nothing predicted: every word under TOP (missing words, then TOP)
    ("", 2, "(TOP (DT the) (NN dog) (VBD saw) (DT a) (NN cat) (. .))"),
])
def test_predictions_that_are_not_trees_are_repaired_and_counted(symbols, repairs, expected):
    gold = tree(GOLD)
    repaired, n = delinearise(symbols.split(), gold.words(), gold.tags())
    assert (str(repaired), n) == (expected, repairs)
    assert repaired.words() == gold.words()  # a repaired tree always covers exactly the input words


def test_vocabularies_put_specials_first_and_survive_their_record():
    vocab = Vocab.build([["b", "a", "b"], ["c"]], min_count=1)
    assert vocab.tokens == ["<pad>", "<s>", "</s>", "<unk>", "b", "a", "c"]  # most frequent first, ties sorted
    assert Vocab.build([["b", "a", "b"]], min_count=2).encode(["b", "a"]) == [4, 3]  # a: seen once, unknown
    assert Vocab.from_str(str(vocab)).tokens == vocab.tokens


# EVALB (COLLINS.prm) on hand-made trees ----------------------------------------------------------
def scores(gold: str, test: str):
    s = score_tree(tree(gold), tree(test))
    return s.matched, s.gold, s.test


def test_pp_attachment_error_by_hand():
    """Gold attaches the PP to the verb: S(0,8) NP(0,2) VP(2,8) NP(3,5) PP(5,8) NP(6,8) = 6 brackets
    ("." deleted, so spans count 8 words). The parse attaches it to "a cat": the same 6 plus NP(3,8).
    P = 6/7, R = 6/6, F1 = 2 x (6/7) x 1 / (6/7 + 1) = 12/13."""
    gold = "(S (NP (DT the) (NN man)) (VP (VBD saw) (NP (DT a) (NN cat)) (PP (IN with) (NP (DT a) (NN hat)))) (. .))"
    test = ("(S (NP (DT the) (NN man)) (VP (VBD saw) (NP (NP (DT a) (NN cat)) (PP (IN with) (NP (DT a) (NN hat))))) "
            "(. .))")
    s = score_tree(tree(gold), tree(test))
    assert (s.matched, s.gold, s.test, s.exact) == (6, 6, 7, 0)
    assert s.precision == pytest.approx(100 * 6 / 7) and s.recall == 100.0 and s.f1 == pytest.approx(100 * 12 / 13)
    assert score_tree(tree(test), tree(gold)).f1 == pytest.approx(100 * 12 / 13)  # symmetric the other way round


def test_punctuation_top_pos_tags_and_function_tags_are_not_scored():
    gold = "(TOP (S (NP-SBJ (DT the) (NN dog)) (, ,) (VP (VBD slept)) (. .)))"
    # "." and "," inside other constituents: punctuation does not count for spans, so the same brackets;
    # other POS tags, no TOP, no function tags: not scored either
    test = "(S (NP (XX the) (XX dog) (XX ,)) (VP (XX slept) (XX .)))"
    assert scores(gold, test) == (3, 3, 3)  # S(0,3) NP(0,2) VP(2,3): TOP and the tags are no brackets
    # a constituent over punctuation only dominates nothing once it is deleted: not a bracket
    assert scores(gold, "(S (NP (DT the) (NN dog)) (PRN (, ,)) (VP (VBD slept)) (. .))") == (3, 3, 3)


def test_advp_and_prt_are_one_label_and_labels_must_match():
    gold = "(S (NP (PRP she)) (VP (VBD gave) (PRT (RP up))) (. .))"
    assert scores(gold, "(S (NP (PRP she)) (VP (VBD gave) (ADVP (RB up))) (. .))") == (4, 4, 4)
    assert scores(gold, "(S (NP (PRP she)) (VP (VBD gave) (PP (IN up))) (. .))") == (3, 4, 4)  # PP is not PRT


def test_duplicate_brackets_match_as_a_multiset():
    """README §7.5: n gold and m test copies of a bracket match min(n, m) times."""
    gold = "(S (NP (NP (DT the) (NN dog))) (VP (VBD slept)))"  # NP(0,2) twice
    test = "(S (NP (DT the) (NN dog)) (VP (VBD slept)))"
    assert scores(gold, test) == (3, 4, 3)  # P = 3/3, R = 3/4
    assert scores(test, gold) == (3, 3, 4)


def test_traces_are_no_words_and_differing_words_are_skipped():
    gold = "(S (NP-SBJ (-NONE- *)) (VP (VBD slept)) (. .))"  # the NP dominates only a trace: removed
    assert scores(gold, "(S (VP (VBD slept)) (. .))") == (2, 2, 2)
    s = score_tree(tree(GOLD), tree(GOLD.replace("cat", "hat")))
    assert (s.skipped, s.sentences, s.gold) == (1, 0, 0)


def test_corpus_scores_sum_counts_over_sentences():
    """Sentence 1: 6 of 6 gold, 7 parsed (above); sentence 2: exact, 4 brackets. Corpus: P = 10/11,
    R = 10/10, F1 = 2 x (10/11) / (10/11 + 1) = 20/21; exact match 1 of 2 = 50 %."""
    gold1 = "(S (NP (DT the) (NN man)) (VP (VBD saw) (NP (DT a) (NN cat)) (PP (IN with) (NP (DT a) (NN hat)))) (. .))"
    test1 = ("(S (NP (DT the) (NN man)) (VP (VBD saw) (NP (NP (DT a) (NN cat)) (PP (IN with) (NP (DT a) (NN hat))))) "
             "(. .))")
    gold2 = "(S (NP (PRP she)) (VP (VBD gave) (PRT (RP up))) (. .))"
    total = score_corpus([tree(gold1), tree(gold2)], [tree(test1), tree(gold2)])
    assert (total.matched, total.gold, total.test, total.sentences, total.exact) == (10, 10, 11, 2, 1)
    assert total.precision == pytest.approx(100 * 10 / 11) and total.recall == 100.0
    assert total.f1 == pytest.approx(100 * 20 / 21) and total.exact_match == 50.0


# The synthetic treebank ------------------------------------------------------------------------------
def test_the_synthetic_grammar_is_deterministic_and_every_tree_parses():
    first, again = generate(300, seed=7), generate(300, seed=7)
    assert [str(t) for t in first] == [str(t) for t in again]
    assert [str(t) for t in generate(300, seed=8)] != [str(t) for t in first]
    splits = {name: synthetic_split(name) for name in SIZES}
    assert {name: len(trees) for name, trees in splits.items()} == SIZES
    sentences = {name: {tuple(t.words()) for t in trees} for name, trees in splits.items()}
    assert all(len(sentences[name]) == SIZES[name] for name in SIZES)  # no sentence twice
    assert not sentences["train"] & sentences["valid"]
    assert not (sentences["train"] | sentences["valid"]) & sentences["test"]
    lengths = [len(t.words()) for trees in splits.values() for t in trees]
    assert min(lengths) >= 3 and max(lengths) <= 40 and max(lengths) >= 30  # lengths vary
    for trees in splits.values():
        for t in trees:
            assert parse_trees([str(t)], "synthetic") == [t] and normalise(t) == t
    assert any("(SBAR (WHNP" in str(t) for t in splits["train"])  # relative clauses
    assert any("(PP (IN of) (NP (NP" in str(t) for t in splits["train"])  # PPs nesting PPs or clauses


def test_the_synthetic_splits_are_the_ones_the_data_card_describes():
    """docs/data/synthetic-treebank.md records these hashes (of each split written one tree per line): a
    change to the grammar or the seeds changes the data, and the F1 measured on it no longer applies."""
    expected = {"train": "3a6250d815c69251c804b411ad6f416dd23fbc56cd1b6a7ebc90459a9261cbe2",
                "valid": "76c8d713bb272e5e43ce8626fb117ccde8f542bba7b494b23ab7c88fecb2ccb8",
                "test": "ba295edc08ec49af0208a1c2a5619bdea33f775a77ba63c13cd2a595e663796c"}
    for name, digest in expected.items():
        text = "".join(f"{t}\n" for t in synthetic_split(name))
        assert hashlib.sha256(text.encode()).hexdigest() == digest, name


# End to end --------------------------------------------------------------------------------------
MICRO = ["--set", "model.d_model=32", "--set", "model.n_heads=2", "--set", "model.d_ff=64",
         "--set", "model.n_encoder_layers=1", "--set", "model.n_decoder_layers=1", "--set", "model.max_positions=128",
         "--max-steps", "4",
         "--set", "train.valid_every=2", "--set", "train.save_every=2", "--set", "train.max_tokens=4096"]
FAST = ["--beam", "2", "--max-len-b", "12"]  # an untrained model runs to the length limit


def test_train_evaluate_and_parse_on_the_synthetic_treebank(tmp_path):
    run = tmp_path / "parsing"
    aiayn("train", "--task", "parsing", "--out", str(run), *MICRO)
    aiayn("train", "--out", str(run), "--resume", "--max-steps", "6")  # the vocabularies come from config.json
    assert (run / "checkpoints" / "step-00000006.safetensors").exists()
    out = aiayn("evaluate", "--model", str(run), *FAST).stdout.decode()
    assert f"synthetic-treebank-test, {SIZES['test']} sentences, beam 2" in out
    p, r, f1 = map(float, re.search(r"precision ([\d.]+)\s+recall ([\d.]+)\s+F1 ([\d.]+)", out).groups())
    repaired = int(re.search(r"repaired predictions (\d+) of", out).group(1))
    assert 0 <= min(p, r, f1) and max(p, r, f1) <= 100 and 0 <= repaired <= SIZES["test"]
    # what `aiayn experiment` records (Parsing.figures): the same scores, with the same decoding and greedily
    from aiayn.tasks import parsing

    fast = dataclasses.replace(parsing.TASK.decoding, beam_size=2, max_len_b=12)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(parsing.TASK, "decoding", fast)
        figures = parsing.TASK.figures(run, "test")
    assert (figures["test_precision"], figures["test_recall"], figures["test_repaired"]) == (
        pytest.approx(p, abs=0.005), pytest.approx(r, abs=0.005), repaired)
    assert 0 <= figures["test_greedy_f1"] <= 100 and 0 <= figures["test_greedy_exact_match"] <= 100
    with pytest.raises(UsageError, match="set evaluate.split to test"):
        parsing.TASK.figures(run, "valid")
    parsed = read_trees(run / "parsed.synthetic-treebank-test.beam2.mrg")
    assert [t.words() for t in parsed] == [t.words() for t in synthetic_split("test")]  # repaired into trees
    proc = aiayn("parse", "--model", str(run), *FAST, input="the dog slept .\n\nshe saw a cat .\n")
    lines = proc.stdout.decode().split("\n")
    assert len(lines) == 4 and lines[1] == "" and lines[3] == ""
    assert tree(lines[0]).words() == "the dog slept .".split() and tree(lines[2]).words() == "she saw a cat .".split()
    wrong = aiayn("translate", "--model", str(run), input="the dog slept .\n", check=False)  # not a translator
    assert wrong.returncode != 0 and "holds a parsing model" in wrong.stderr.decode() and "aiayn parse" in wrong.stderr.decode()
    assert "Traceback" not in wrong.stderr.decode()


def test_train_and_score_on_your_own_trees(tmp_path, capsys):
    """A WSJ user's path, on a few made-up trees in the treebank's own layout (outer brackets, traces)."""
    train, valid = tmp_path / "train.mrg", tmp_path / "valid.mrg"
    train.write_text(WSJ_LIKE * 20)
    valid.write_text(WSJ_LIKE)
    run = tmp_path / "own"
    aiayn("train", "--task", "parsing", "--train", str(train), "--valid", str(valid), "--out", str(run), *MICRO)
    out = aiayn("evaluate", "--model", str(run), "--test", str(valid), *FAST).stdout.decode()
    assert f"{valid}, 2 sentences" in out and "F1" in out
    assert len(read_trees(run / "parsed.valid.beam2.mrg")) == 2
    bad = tmp_path / "bad.mrg"
    bad.write_text("(S (NP (NN dog))\n(VP (VBD ran)))\n)\n")
    proc = aiayn("evaluate", "--model", str(run), "--test", str(bad), check=False)
    assert proc.returncode == 1 and proc.stderr.decode() == f"error: {bad}: line 3: unbalanced brackets: this ')' " \
                                                            "closes nothing\n"
    capsys.readouterr()
    for args, message in (
            (["train", "--task", "parsing", "--train", str(bad), "--valid", str(valid), "--out", str(tmp_path / "x")],
             f"{bad}: line 3"),
            (["train", "--task", "parsing", "--train", str(train), "--out", str(tmp_path / "y")], "needs both --train"),
            (["train", "--out", str(run), "--resume", "--train", str(valid)], "drop --train"),  # not its data
            (["evaluate", "--model", str(run), "--src", "en"], "--src and --tgt are for translation")):
        assert main(args) == 1, args  # in this process: quicker than a new one per refusal
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (args, err)
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()  # refused before anything is written
