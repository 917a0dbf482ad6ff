"""Experiments as data: the YAML spec and its errors, the verdicts of the Table 3 report, scores by length, the
FLOP count against a hand count, and the runner end to end (train, skip, continue a longer budget, rescore)."""

from __future__ import annotations

import json
import statistics

import pytest
from conftest import aiayn

from aiayn.errors import UsageError
from aiayn.experiments import load, names
from aiayn.experiments.report import _budget_changes, _judge, _paper_changes, render
from aiayn.experiments.runner import read_lines, run_experiment, valid_curve, write_lines
from aiayn.experiments.spec import tuned_setting
from aiayn.io.checkpoint import read_header
from aiayn.io.rundir import RunDir
from aiayn.metrics.bleu import paired_bootstrap
from aiayn.tasks.music import SAMPLING

SPEC = """\
experiment: tiny-copy
title: copy
data: {task: copy, symbols: 6, min_len: 2, max_len: 12, train_pairs: 400, valid_pairs: 20, test_pairs: 30}
defaults: {preset: tiny, seed: 1, budget: {updates: 4},
           set: {train.vocab_size: 17, train.valid_bleu_sentences: 0, train.save_every: 2, train.max_tokens: 400,
                 train.log_every: 1, model.hidden: 16, model.embed_dim: 8, model.maxout_dim: 8}}
evaluate: {split: test, beam: 1, metric: exact, bins: [2, 7, 13], curve: true, curve_minutes: [0.01], alignments: 2}
runs:
  - {name: encdec, arch: rnnencdec, label: RNNencdec}
  - {name: search, arch: rnnsearch, label: RNNsearch}
"""


def test_the_shipped_experiments_load():
    assert {"table3", "recurrent", "bottleneck"} <= set(names())
    table3 = load("table3")
    assert len(table3.runs) >= 19 and all(r.updates == 2000 for r in table3.runs)
    assert sum(r.row == "base" for r in table3.runs) == 3  # three seeds measure the noise
    assert table3.run("A-h1").overrides() == {"train.seed": 1, "train.max_steps": 2000, "model.n_heads": 1}
    assert load("recurrent").run("rnnsearch").time == 3 * 3600
    chorales = load("chorales")
    augmented, plain = chorales.run("voices-aug"), chorales.run("voices")
    assert (augmented.task, augmented.preset, augmented.options) == ("music", "voices", {"transpose": 5})
    assert augmented.key != plain.key and plain.options == {"transpose": 0}
    assert chorales.evaluate.valid_curve and augmented.overrides()["train.valid_every"] == 250
    positions = load("music_positions")  # what benchmarks/music.py trained (commit 0b6cefe), now as data
    for name, preset, transpose in (("absolute", "absolute", 0), ("relative", "relative", 0),
                                    ("relative-transpose3", "relative", 3)):
        run = positions.run(name)
        assert (run.task, run.preset, run.options) == ("music", preset, {"window": 256, "transpose": transpose})
        assert run.overrides() == {"train.seed": 1, "train.max_time": 900, "train.max_tokens": 2048}
    tuning = load("chorale_unlikelihood")  # the recipe of benchmarks/chorale_unlikelihood.py (commit 0b6cefe)
    fine = {"train.lr_scale": 0.03, "train.valid_every": 50, "train.save_every": 50}
    for name, alpha, updates, options in (("ctl", 0, 300, {"transpose": 5}), ("ul32-600", 32, 600, {"transpose": 5}),
                                          ("ir64", 64, 1200, {"transpose": 5, "in_range": True})):
        run = tuning.run(name)
        assert (run.task, run.preset, run.init, run.options) == ("music", "voices", "runs/gpu/g8k", options)
        assert run.overrides() == {"train.seed": 1, "train.max_steps": updates, **fine, "train.unlikelihood": alpha}
    batches = load("chorale_batches")  # benchmarks/gpu_chorales.sh's three runs (TRAIN_S 420), as data
    gpu = {"train.seed": 1, "train.max_time": 420, "train.precision": "bf16", "train.valid_every": 250,
           "train.save_every": 250, "train.log_every": 50}
    assert batches.run("g8k-L6").overrides() == {**gpu, "train.max_tokens": 8192, "model.n_layers": 6}
    assert batches.run("g2k").overrides() == {**gpu, "train.max_tokens": 2048} and batches.evaluate.valid_curve
    whole = load("whole_chorales")  # benchmarks/whole_chorales.py's train (commit 0b6cefe), as data
    timed = {"train.seed": 1, "train.max_time": 2700, "train.valid_every": 100, "train.max_tokens": 2048}
    assert whole.run("rel256").overrides() == {**timed, "model.max_relative_distance": 256}
    assert whole.run("abs2048").overrides() == timed and whole.run("abs2048").options == {"window": 2048}
    assert whole.evaluate.by_position == ("whole", "chained")


@pytest.mark.parametrize("mistake, words", [
    ("  - {name: a, budget: {updates: 0}}", ":11: run 'a': budget updates must be a whole number"),
    ("  - {name: a, colour: red}", ":11: run 'a' has unknown key 'colour'"),
    ("  - {name: a, budget: {time: soon}}", ":11: run 'a': 'soon' is not a duration"),
    ("  - {name: a, set: {dropout: 0.1}}", ":11: run 'a': set 'dropout' is not model.FIELD or train.FIELD"),
    ("  - {name: encdec}", "run 'encdec' is named twice"),
])
def test_a_mistake_names_the_file_line_and_run(tmp_path, mistake, words):
    path = tmp_path / "x.yaml"
    path.write_text(SPEC + mistake + "\n")
    with pytest.raises(UsageError) as e:
        load(path)
    assert words in str(e.value) and str(path) in str(e.value)


def test_the_key_changes_with_training_and_not_with_labels(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text(SPEC)
    before = load(path).run("search")
    path.write_text(SPEC.replace("label: RNNsearch", "label: attention, row: X"))
    assert load(path).run("search").key == before.key
    path.write_text(SPEC.replace("updates: 4", "updates: 5"))
    assert load(path).run("search").key != before.key
    path.write_text(SPEC.replace("symbols: 6", "symbols: 5"))
    assert load(path).run("search").key != before.key  # the experiment's data is part of every run
    path.write_text(SPEC.replace("label: RNNsearch", "init: runs/x"))
    assert load(path).run("search").key != before.key  # fine-tuning from a model is another run


def test_two_commands_saving_records_keep_both(tmp_path):
    from aiayn.experiments.runner import Results

    first, second = Results(tmp_path / "results.json"), Results(tmp_path / "results.json")  # both read it empty
    first.put({"name": "a", "key": "1"})
    second.put({"name": "b", "key": "2"})
    assert set(Results(tmp_path / "results.json").records) == {"a", "b"}


def test_a_verdict_can_fail_and_no_change_is_never_a_reproduction():
    """The paper's difference (theirs) against ours with its noise margin: inside the margin nothing can be told,
    even where the paper saw no change; outside, the paper's direction, the opposite, or a change it did not see."""
    assert _judge(-0.9, -2.0, 1.0, 0.3) == "the paper's direction"
    assert _judge(-0.9, +2.0, 1.0, 0.3) == "the opposite"
    assert _judge(-0.9, +0.5, 1.0, 0.3) == "cannot tell at this noise"
    assert _judge(0.0, 0.5, 1.0, 0.3) == "cannot tell at this noise"  # no change in either: not "reproduced"
    assert _judge(-0.1, -3.6, 1.0, 0.3) == "a change the paper did not see"


def test_table3_with_training_judges_each_row_against_its_seed_at_each_budget(tmp_path):
    """table3_budget: each variation's BLEU at 2,000 / 4,000 / 8,000 updates against the same-seed base, the mean
    of its seeds with the margin from the base seeds at that budget; a table and a picture of it."""
    exp = load("table3_budget")
    assert [r.updates for r in exp.runs] == [8000] * 10 and exp.evaluate.curve_updates == (2000, 4000, 8000)
    assert {r.seed for r in exp.runs} == {1, 2} and all(r.set["train.precision"] == "bf16" for r in exp.runs)

    def record(spec, bleus):
        curve = [{"step": s, "minutes": s / 60, "flops": s * 1.0, "bleu": b, "chrf": 0.0}
                 for s, b in zip((2000, 4000, 8000), bleus)]
        return {"name": spec.name, "row": spec.row, "label": "", "set": spec.set, "seed": spec.seed, "paper": spec.paper,
                "updates": 8000, "train_seconds": 60.0, "parameters": 1, "valid_ppl": 10.0 + spec.seed,
                "bleu": bleus[-1], "chrf": 0.0, "curve": curve}

    bleus = {"base-s1": (10, 20, 24), "base-s2": (11, 21, 25), "A-h1-s1": (12, 20, 24), "A-h1-s2": (14, 22, 25)}
    records = {name: record(exp.run(name), b) for name, b in bleus.items()}
    rows, steps = _budget_changes(exp, list(records.values()))
    assert steps == [2000, 4000, 8000] and [r["name"] for r in rows] == ["A: n_heads=1"]  # bf16 etc.: every run's
    margin = 2 * 2 ** 0.5 * 2 ** -0.5 / 2 ** 0.5  # the base seeds differ by 1 at every budget: sd 1/√2; two pairs
    points = rows[0]["points"]
    assert [(p["step"], p["bleu"], p["seeds"]) for p in points] == [(2000, 2.5, [2, 3]), (4000, 0.5, [0, 1]),
                                                                     (8000, 0.0, [0, 0])]
    assert [p["margin"] for p in points] == pytest.approx([margin] * 3)
    table = render(exp, records, tmp_path)
    assert "| A: n_heads=1 | -0.90 | +2.50 (± 1.41, 2 seeds): the opposite | +0.50 (± 1.41, 2 seeds): cannot tell" in table
    # with both runs' hypotheses kept, each seed's difference gets sacreBLEU's paired bootstrap p-value
    refs = [f"the cat number {i} sat on the mat today" for i in range(40)]
    worse = [f"a cat number {i} sat on a mat" for i in range(40)]
    write_lines(tmp_path / "hyps" / "references.txt.gz", refs)
    for name, lines in (("base-s1", worse), ("A-h1-s1", refs)):
        write_lines(tmp_path / "hyps" / f"{name}-2000.txt.gz", lines)
        records[name]["curve"][0]["hyps"] = f"{name}-2000.txt.gz"
    rows, _ = _budget_changes(exp, list(records.values()), tmp_path)
    assert rows[0]["points"][0]["p_values"] == [paired_bootstrap(worse, refs, refs)["p_value"]]
    assert rows[0]["points"][0]["p_values"][0] < 0.01 and rows[0]["points"][1]["p_values"] == []
    assert "2 seeds; paired bootstrap p 0.001): the opposite" in render(exp, records, tmp_path)
    assert (tmp_path / "by_budget.png").read_bytes()[:4] == b"\x89PNG" and "Not yet run: D-drop0-s1" in table


def test_flops_of_one_update_equal_a_hand_count():
    """An RNNencdec's forward pass: every GRU and linear product over the padded batch, 2 FLOPs a multiply-add,
    counted by hand; a whole update (forward, loss, backward) about three times that (input and weight
    gradients; autograd skips the few input gradients nothing needs)."""
    from torch.utils.flop_counter import FlopCounterMode

    from aiayn.data.batching import collate
    from aiayn.model.config import RNNSearchConfig
    from aiayn.model.rnnsearch import RNNSearch
    from aiayn.training.loss import label_smoothed_cross_entropy

    V, m, n, l = 11, 8, 16, 4
    model = RNNSearch(RNNSearchConfig(src_vocab_size=V, embed_dim=m, hidden=n, maxout_dim=l, attention=False))
    batch = collate([[5, 6, 7], [5, 6]], [[8, 9], [8, 9, 10, 4]], 0, 1, 2)
    B, S, T = batch.src.shape[0], batch.src.shape[1], batch.tgt_in.shape[1]
    gru = lambda inputs, hidden: 3 * (inputs * hidden + hidden * hidden)  # noqa: E731 (three gates)
    encoder = 2 * gru(m, n)  # two directions, every source position
    decoder = gru(m + 2 * n, n)  # the GRU cell, every target position but the last (its state would feed nothing)
    readout = (n + m + 2 * n) * 2 * l + l * V  # deep output and softmax, every target position
    by_hand = 2 * (B * S * encoder + B * n * n + B * (T - 1) * decoder + B * T * readout)  # B n n: s_0's W_s
    with FlopCounterMode(display=False) as forward:
        logits = model(batch.src, batch.tgt_in)
    assert forward.get_total_flops() == by_hand
    with FlopCounterMode(display=False) as update:
        label_smoothed_cross_entropy(model(batch.src, batch.tgt_in), batch.tgt_out, 0.1, 0).loss.backward()
    assert update.get_total_flops() == pytest.approx(3 * by_hand, rel=0.03) and logits.shape == (B, T, V)


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    folder = tmp_path_factory.mktemp("exp")
    (folder / "x.yaml").write_text(SPEC)
    out = aiayn("experiment", str(folder / "x.yaml"), "--runs", str(folder / "runs"), "--results",
                str(folder / "results"), OMP_NUM_THREADS="1")
    return folder, out


def test_the_runner_trains_scores_and_tabulates_every_run(ran):
    folder, out = ran
    results = json.loads((folder / "results" / "tiny-copy" / "results.json").read_text())
    assert set(results) == {"encdec", "search"}
    for name, record in results.items():
        log = (folder / "runs" / "tiny-copy" / name / "log.jsonl").read_text().splitlines()
        trained = [json.loads(line)["elapsed"] for line in log if '"train"' in line]
        assert record["updates"] == 4 and record["train_seconds"] == pytest.approx(trained[-1], abs=0.01)
        assert record["parameters"] > 0
        assert {"commit", "date", "host"} <= set(record["scored"]) and record["scored"]["host"]["cpu"]  # provenance
        assert record["curve"][-1]["step"] == 4 and record["curve"][-1]["flops"] == 4 * record["flops_per_update"]
        assert sum(b["n"] for b in record["by_length"]) == 30
        assert all(b["bleu_ci95"] >= 0 for b in record["by_length"])  # each bin's 95% bootstrap interval
        kept = folder / "results" / "tiny-copy" / "hyps"  # every scored checkpoint's hypotheses, for the bootstrap
        assert record["hyps"] == f"{name}-4.txt.gz" and len(read_lines(kept / record["hyps"])) == 30
        assert len(read_lines(kept / "references.txt.gz")) == 30
        speeds = [json.loads(line)["tgt_tok_s"] for line in log if '"train"' in line][1:]  # after the start-up
        assert record["tgt_tokens_per_s"] == statistics.median(speeds)
    assert results["search"]["parameters"] > results["encdec"]["parameters"]  # the attention's own weights
    assert "alignments" not in results["encdec"]  # no attention to show
    shown = results["search"]["alignments"]
    assert len(shown) == 2 and all(8 <= len(a["source"].split()) <= 14 for a in shown)
    for a in shown:  # a target piece down each row (EOS included), a source piece across, each row a distribution
        assert len(a["weights"]) == len(a["queries"]) and {len(row) for row in a["weights"]} == {len(a["keys"])}
        assert all(sum(row) == pytest.approx(1, abs=1e-3) for row in a["weights"])
    table = (folder / "results" / "tiny-copy" / "table.md").read_text()
    assert "| RNNencdec |" in table and "| RNNsearch |" in table and table in out.stdout.decode()
    assert "target tokens/s (median)" in table and "(alignments.png)" in table
    for picture in ("curves.png", "length.png", "alignments.png"):
        assert (folder / "results" / "tiny-copy" / picture).read_bytes()[:4] == b"\x89PNG"


def test_the_same_command_skips_finished_runs_and_a_longer_budget_continues(ran):
    folder, _ = ran
    args = ("experiment", str(folder / "x.yaml"), "--runs", str(folder / "runs"), "--results", str(folder / "results"))
    log = folder / "runs" / "tiny-copy" / "search" / "log.jsonl"
    before = log.read_text()
    aiayn(*args, OMP_NUM_THREADS="1")
    assert log.read_text() == before  # nothing trained again
    (folder / "x.yaml").write_text(SPEC.replace("updates: 4", "updates: 6"))
    aiayn(*args, "--only", "search", OMP_NUM_THREADS="1")
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(e["event"] == "resume" and e["step"] == 4 for e in events)  # continued, not restarted
    results = json.loads((folder / "results" / "tiny-copy" / "results.json").read_text())
    assert results["search"]["updates"] == 6 and results["encdec"]["updates"] == 4


def test_early_stopping_asked_for_later_is_scored_without_training(tmp_path):
    """``best_too`` added to a finished experiment: the same command scores the run's best checkpoint (the
    trainer's) into its record as ``at_best``, keeps its hypotheses, and trains nothing."""
    spec = SPEC.replace("  - {name: search, arch: rnnsearch, label: RNNsearch}\n", "")
    args = ("experiment", str(tmp_path / "x.yaml"), "--runs", str(tmp_path / "runs"), "--results", str(tmp_path / "results"))
    (tmp_path / "x.yaml").write_text(spec)
    aiayn(*args, OMP_NUM_THREADS="1")
    run, results = tmp_path / "runs" / "tiny-copy" / "encdec", tmp_path / "results" / "tiny-copy"
    assert "at_best" not in json.loads((results / "results.json").read_text())["encdec"]
    log = (run / "log.jsonl").read_text()
    (tmp_path / "x.yaml").write_text(spec.replace("alignments: 2}", "alignments: 2, best_too: true}"))
    aiayn(*args, OMP_NUM_THREADS="1")
    assert (run / "log.jsonl").read_text() == log  # nothing trained
    best = json.loads((results / "results.json").read_text())["encdec"]["at_best"]
    step = read_header(run / "best.safetensors")[1]["step"]
    assert best["step"] == step and 0 <= best["accuracy"] <= 1 and best["hyps"] == f"encdec-best-{step}.txt.gz"
    assert best["scored"]["host"]["cpu"]  # its own provenance: it may come long after the record
    assert len(read_lines(results / "hyps" / best["hyps"])) == 30


def test_list_and_bad_names_are_one_line(ran, tmp_path):
    folder, _ = ran
    listing = aiayn("experiment", str(folder / "x.yaml"), "--runs", str(folder / "runs"), "--results",
                    str(folder / "results"), "--list").stdout.decode()
    assert "encdec" in listing and "done" in listing
    fresh = folder / "fresh"  # the listing reads the same spec against run folders in other states
    (fresh / "tiny-copy" / "search").mkdir(parents=True)
    (fresh / "tiny-copy" / "search" / "config.json").write_text("{}")

    def states(runs, results):  # run name -> its state, the words after its budget
        out = aiayn("experiment", str(folder / "x.yaml"), "--runs", str(runs), "--results", str(results), "--list")
        return {line.split()[0]: line.split(" updates ", 1)[1].strip() for line in out.stdout.decode().splitlines()[1:]}

    assert states(fresh, tmp_path) == {"encdec": "not started", "search": "started, nothing saved yet (starts again)"}
    assert states(folder / "runs", tmp_path)["encdec"] == "started, 4 updates saved"  # trained, not in these results
    with RunDir(fresh / "tiny-copy" / "search").owned():
        assert states(fresh, tmp_path)["search"] == "training now"
    bad = aiayn("experiment", "table9", check=False)
    assert bad.returncode == 1 and bad.stderr.decode().count("\n") == 1 and "table3" in bad.stderr.decode()


def test_a_run_another_command_trains_is_skipped(tmp_path):
    (tmp_path / "x.yaml").write_text(SPEC)
    args = ("experiment", str(tmp_path / "x.yaml"), "--runs", str(tmp_path / "runs"), "--results", str(tmp_path / "r"))
    with RunDir(tmp_path / "runs" / "tiny-copy" / "encdec").owned():  # as a second shell's command would
        out = aiayn(*args, OMP_NUM_THREADS="1")
    assert "encdec: skipped, another command is training it" in out.stderr.decode()
    assert set(json.loads((tmp_path / "r" / "tiny-copy" / "results.json").read_text())) == {"search"}


def test_a_run_another_command_scores_is_skipped(tmp_path):
    """A run whose training has ended but whose record another command is still writing (it scores it) is not
    scored a second time."""
    from aiayn.experiments.runner import taken

    (tmp_path / "x.yaml").write_text(SPEC)
    args = ("experiment", str(tmp_path / "x.yaml"), "--runs", str(tmp_path / "runs"), "--results", str(tmp_path / "r"))
    with taken(RunDir(tmp_path / "runs" / "tiny-copy" / "search")) as mine:  # as a second shell's command would
        assert mine
        with taken(RunDir(tmp_path / "runs" / "tiny-copy" / "search")) as again:
            assert not again  # held: even this process's second try is refused
        out = aiayn(*args, OMP_NUM_THREADS="1")
    assert "search: skipped, another command is training or scoring it" in out.stderr.decode()
    assert set(json.loads((tmp_path / "r" / "tiny-copy" / "results.json").read_text())) == {"encdec"}


MUSIC = """\
experiment: notes
title: chorales
defaults: {task: music, preset: voices, seed: 1, budget: {updates: 6}, options: {transpose: 1, window: 64},
           set: {model.d_model: 32, model.n_heads: 2, model.d_ff: 64, model.n_layers: 1, train.max_tokens: 512,
                 train.warmup: 4, train.log_every: 1, train.valid_every: 2, train.save_every: 2}}
evaluate: {split: test, valid_curve: true, by_position: [whole, chained]}
runs:
  - {name: plain, options: {window: 64}, label: no augmentation}
  - {name: moved, label: transposed}
"""


def test_a_music_experiment_is_chosen_by_its_validation_curve(chorale_cache, tmp_path):
    (tmp_path / "x.yaml").write_text(MUSIC)
    out = aiayn("experiment", str(tmp_path / "x.yaml"), "--runs", str(tmp_path / "runs"), "--results", str(tmp_path / "r"),
                OMP_NUM_THREADS="1", AIAYN_CACHE=str(chorale_cache))
    records = json.loads((tmp_path / "r" / "notes" / "results.json").read_text())
    for name, record in records.items():
        config = json.loads((tmp_path / "runs" / "notes" / name / "config.json").read_text())
        assert config["data"]["window"] == 64 and config["data"]["transpose"] == (name == "moved")
        assert [p["step"] for p in record["valid_curve"]] == [2, 4, 6] and record["test_nll"] > 0
        # windows of 64 tokens: positions 64-127 of every longer test chorale were never seen in training
        assert record["test_pieces_beyond"] > 0 and record["test_nll_within"] > 0 and record["test_nll_beyond"] > 0
        assert f"| {record['test_nll_beyond']:.3f} |" in out.stdout.decode()
        assert record["valid_curve"][-1]["valid_nll"] == record["valid_nll"]
        tokens = [p["tokens"] for p in record["valid_curve"]]  # read by then: the x of the picture's right panel
        assert 0 < tokens[0] < tokens[1] < tokens[2]
        # NLL by position of the test chorales read whole and chained, past the 64-token window
        assert record["whole_nll_0_256"] > 0 and record["chained_nll_0_2048"] > 0
        assert f"| {record['whole_nll_all']:.3f} |" in out.stdout.decode()
        xs, ys = record["by_position"]["whole"]
        assert xs[0] == 16 and len(xs) == len(ys) and set(record["by_position"]) == {"whole", "chained"}
        best = min(p["valid_nll"] for p in record["valid_curve"])
        assert f"| {record['label']} |" in out.stdout.decode() and f"| {best:.3f} |" in out.stdout.decode()
        at = next(p["step"] for p in record["valid_curve"] if p["valid_nll"] == best)  # still learning at the end?
        row = next(line for line in out.stdout.decode().splitlines() if line.startswith(f"| {record['label']} |"))
        assert ("| yes |" if at == 6 else f"| no: best at update {at} |") in row
        # 20 unconditional samples graded beside Bach's test chorales (here the made-up ones)
        assert 0 <= record["samples_ended"] <= 1 and record["samples_parallel_5ths"] >= 0
        assert f"| {record['samples_crossings']:.2f} |" in out.stdout.decode()
        assert f"| T {SAMPLING['temperature']}, top-p {SAMPLING['top_p']} |" in out.stdout.decode()
        assert record["bach"]["parallel_5ths"] >= 0
    assert "best valid NLL" in out.stdout.decode() and "parallel 5ths / 100 q" in out.stdout.decode()
    assert "Bach's test chorales, graded the same way" in out.stdout.decode()
    for picture in ("validation.png", "nll_by_position.png"):
        assert (tmp_path / "r" / "notes" / picture).read_bytes()[:4] == b"\x89PNG"


def test_a_run_fine_tunes_a_trained_model(chorale_cache, tmp_path):
    """``init``: a run starts from the weights of a trained model (``aiayn train --init``), as the
    chorale_unlikelihood experiment fine-tunes the GPU model with the unlikelihood of parallels; the table gives
    the parallels each run is expected to write beside Bach's."""
    base = RunDir(tmp_path / "runs" / "notes" / "plain")
    tuned = f"  - {{name: tuned, init: {base.path}, options: {{window: 64}}, budget: {{updates: 2}}, " \
            "set: {train.unlikelihood: 8}}\n"
    spec = MUSIC.replace("  - {name: moved, label: transposed}\n", tuned).replace(", by_position: [whole, chained]", "")
    (tmp_path / "x.yaml").write_text(spec)
    out = aiayn("experiment", str(tmp_path / "x.yaml"), "--runs", str(tmp_path / "runs"), "--results", str(tmp_path / "r"),
                OMP_NUM_THREADS="1", AIAYN_CACHE=str(chorale_cache)).stdout.decode()
    run = RunDir(tmp_path / "runs" / "notes" / "tuned")
    assert run.read_config()["init"] == str(base.model_file()) and run.read_config()["train"]["unlikelihood"] == 8
    assert [e["step"] for e in run.events("train")][-1] == 2
    record = json.loads((tmp_path / "r" / "notes" / "results.json").read_text())["tuned"]
    assert f"| {record['test_parallel_8ves_expected']:.2f} |" in out
    assert f"Bach's own: 5ths {record['test_parallel_5ths_bach']:.2f}" in out


def test_the_validation_curve_by_hand():
    """Minutes from the training line before each validation; tokens read summed from each logged rate times the
    seconds since the line before (what benchmarks/chorale_batches.py summed, commit 0b6cefe)."""
    events = [{"event": "train", "step": 10, "elapsed": 60.0, "tgt_tok_s": 100.0},
              {"event": "valid", "step": 10, "valid_nll": 3.0},
              {"event": "train", "step": 20, "elapsed": 120.0, "tgt_tok_s": 200.0},
              {"event": "train", "step": 20, "elapsed": 100.0, "tgt_tok_s": 50.0},  # a kill, --resume from step 10
              {"event": "train", "step": 20, "elapsed": 121.5, "tgt_tok_s": 40.0},
              {"event": "valid", "step": 20, "valid_nll": 2.5}, {"event": "train", "step": 30, "elapsed": 180.0}]
    assert valid_curve(events) == [{"step": 10, "minutes": 1.0, "tokens": 6_000, "valid_nll": 3.0},
                                   {"step": 20, "minutes": 2.02, "tokens": 6_000 + 12_000 + 860, "valid_nll": 2.5}]
    # a log that counts its tokens is summed as counted: two fast lines 0.01 s apart on the logged clock still add
    counted = [{"event": "train", "step": 2, "elapsed": 0.05, "tgt_tok_s": 9e4, "tgt_tokens": 1_193},
               {"event": "valid", "step": 2, "valid_nll": 3.0},
               {"event": "train", "step": 4, "elapsed": 0.05, "tgt_tok_s": 9e4, "tgt_tokens": 1_201},
               {"event": "valid", "step": 4, "valid_nll": 2.9}]
    assert [p["tokens"] for p in valid_curve(counted)] == [1_193, 2_394]


def test_render_with_no_seeds_judges_nothing(tmp_path):
    exp = load("table3")
    record = {"name": "tiny", "row": "base", "label": "", "set": {}, "seed": 1, "paper": {"ppl": 4.92, "bleu": 25.8},
              "updates": 2000, "train_seconds": 1700.0, "parameters": 7_577_600, "valid_ppl": 20.0, "bleu": 10.0,
              "chrf": 30.0}
    text = render(exp, {"tiny": record}, tmp_path)
    assert "| base | tiny | seed 1 | 7.58M | 2,000 | 28 min | 20.00 | 10.00 | 4.92 | 25.8 |" in text
    assert "Fewer than two seeds" in text and "Not yet run: A-h1" in text and "reproduced" not in text
    assert not (tmp_path / "variations.png").exists()  # nothing to draw against before two seeds


def test_a_tuning_budget_names_each_models_best_setting(tmp_path):
    """recurrent_tuning: the runs of each model (its row) are its settings; the table names the best of each by
    development BLEU and says whether each run's validation NLL was still falling when its time ran out."""
    exp = load("recurrent_tuning")
    assert {r.row for r in exp.runs} == {"Transformer", "RNNsearch", "RNNencdec"} and exp.evaluate.valid_curve

    def record(name, bleu, nll):
        spec = exp.run(name)
        curve = [{"step": 500 * (i + 1), "minutes": 5.0 * (i + 1), "tokens": 1, "valid_nll": v} for i, v in enumerate(nll)]
        return {"name": name, "row": spec.row, "label": spec.label, "set": spec.set, "seed": 1, "paper": {},
                "updates": 500 * len(nll), "train_seconds": 1200.0, "parameters": 1, "bleu": bleu, "chrf": 0.0,
                "valid_curve": curve}

    records = {r["name"]: r for r in (record("transformer-lr0.35-clip0", 12.0, [5, 4, 3]),
                                      record("transformer-lr6-clip1", 14.5, [5, 3, 4]),
                                      record("rnnsearch-lr1.5-clip1", 9.25, [6, 5]))}
    text = render(exp, records, tmp_path)
    assert "Best of each row by valid BLEU: RNNsearch: RNNsearch, lr x1.5, clip 1 (9.25); Transformer: Transformer, " \
           "lr x6, clip 1 (14.50)." in text
    lines = {line.split(" | ")[0]: line for line in text.splitlines() if line.startswith("| Transformer, lr x")}
    assert "| yes |" in lines["| Transformer, lr x0.35, clip none"]
    assert "| no: best at update 1,000 |" in lines["| Transformer, lr x6, clip 1"]


def test_the_fair_comparison_sets_each_model_against_the_transformer_of_its_seed(tmp_path):
    """recurrent_fair: each recurrent run against the Transformer of the same seed, on the same sentences: the
    difference, sacreBLEU's paired bootstrap interval and p-value from their kept hypotheses; none without them."""
    exp = load("recurrent_fair")
    assert exp.evaluate.against == "Transformer"
    refs = [f"the cat number {i} sat on the mat today" for i in range(40)]
    worse = [" ".join(r.split()[: 9 - i % 4]) for i, r in enumerate(refs)]
    write_lines(tmp_path / "hyps" / "references.txt.gz", refs)

    def record(name, bleu, hyps=None):
        spec = exp.run(name)
        if hyps is not None:
            write_lines(tmp_path / "hyps" / f"{name}-100.txt.gz", hyps)
        return {"name": name, "row": spec.row, "label": "", "set": {}, "seed": spec.seed, "paper": {}, "updates": 100,
                "train_seconds": 60.0, "parameters": 1, "bleu": bleu, "chrf": 0.0,
                **({"hyps": f"{name}-100.txt.gz"} if hyps is not None else {})}

    records = {r["name"]: r for r in (record("transformer-s1", 30.0, refs), record("rnnsearch-s1", 20.0, worse),
                                      record("rnnencdec-s1", 10.0), record("rnnsearch-s2", 21.0, worse))}
    text = render(exp, records, tmp_path)
    test = paired_bootstrap(refs, worse, refs)
    assert test["high"] < 0 and test["p_value"] < 0.01
    assert (f"| rnnsearch-s1 | 20.00 | 30.00 | -10.00 | {test['low']:+.2f} to {test['high']:+.2f} | "
            f"{test['p_value']:.3f} |") in text
    assert "| rnnencdec-s1 | 10.00 | 30.00 | -20.00 | – | – |" in text  # no kept hypotheses: no test
    assert "| rnnsearch-s2 |" not in text.split("Each run against")[1]  # no Transformer of seed 2 yet
    assert "at the trainer's best checkpoints" not in text  # not scored there
    # early stopping scored too: the table says where, and the pairs are compared there as well
    for name, bleu in (("transformer-s1", 29.0), ("rnnsearch-s1", 25.0), ("rnnencdec-s1", 12.0)):
        records[name]["at_best"] = {"step": 50, "bleu": bleu, **({"hyps": records[name]["hyps"]}
                                                              if "hyps" in records[name] else {})}
    records["rnnsearch-s2"]["at_best"] = {"step": 60, "bleu": 22.0}
    text = render(exp, records, tmp_path)
    assert "| 50 | 25.00 |" in text.splitlines()[[i for i, line in enumerate(text.splitlines())
                                                    if line.startswith("| rnnsearch-s1 |")][0]]
    best = text.split("at the trainer's best checkpoints")[1]
    assert f"| rnnsearch-s1 | 25.00 | 29.00 | -4.00 | {test['low']:+.2f} to {test['high']:+.2f} |" in best
    assert "| rnnencdec-s1 | 12.00 | 29.00 | -17.00 | – | – |" in best


def test_a_tuned_run_takes_the_best_setting_of_its_row_once_the_whole_row_is_scored(tmp_path):
    """recurrent_fair: each run takes the lr and clipping of its row's best recurrent_tuning run by BLEU (only the
    fields the grid varies), and refuses, naming the command, while any run of that row is unscored or stale."""
    tuning, fair = load("recurrent_tuning"), load("recurrent_fair")
    bleu = {"rnnsearch-lr0.35-clip0": 2.5, "rnnsearch-lr0.35-clip1": 3.0, "rnnsearch-lr1.5-clip0": 9.0,
            "rnnsearch-lr1.5-clip1": 11.0, "rnnsearch-lr6-clip0": 0.5, "rnnsearch-lr6-clip1": 11.0}  # a tie: first wins
    records = {r.name: {"key": r.key, "bleu": bleu[r.name]} for r in tuning.runs if r.row == "RNNsearch"}
    spec = fair.run("rnnsearch-s2")
    chosen = tuned_setting(spec, tuning, records)
    assert chosen.tuned_from == "rnnsearch-lr1.5-clip1" and chosen.seed == 2 and chosen.time == 3 * 3600
    assert chosen.set == {**spec.set, "train.lr_scale": 1.5, "train.clip_norm": 1}  # its own budget and checkpoints
    assert chosen.key != spec.key and chosen.key != tuned_setting(fair.run("rnnsearch-s1"), tuning, records).key

    stale = {**records, "rnnsearch-lr6-clip1": {"key": "older", "bleu": 20.0}}
    for partial in (stale, {k: v for k, v in records.items() if k != "rnnsearch-lr0.35-clip0"}):
        with pytest.raises(UsageError, match="1 of its 6 RNNsearch runs still to train.*aiayn experiment recurrent_tuning"):
            tuned_setting(spec, tuning, partial)
    with pytest.raises(UsageError, match="aiayn experiment recurrent_tuning"):  # before any data or training
        run_experiment(fair, tmp_path / "runs", tmp_path / "results")
    assert not (tmp_path / "runs").exists()


def test_the_listing_reads_a_tuned_runs_record_with_its_tuned_setting(tmp_path):
    """``--list`` calls a tuned run done when its record holds the tuned setting's key (the spec as written has
    another), and lists the runs as written while the tuning is unfinished."""
    from aiayn.app.experiment import _listing
    from aiayn.experiments.runner import Results

    tuning, fair = load("recurrent_tuning"), load("recurrent_fair")
    results = Results(tmp_path / "r" / fair.name / "results.json")
    assert "rnnsearch-s1   3 h of training        not started" in _listing(fair, tmp_path / "runs", results)  # no tuning
    tuned_records = {r.name: {"name": r.name, "key": r.key, "bleu": 1.0} for r in tuning.runs}
    for record in tuned_records.values():
        Results(tmp_path / "r" / tuning.name / "results.json").put(record)
    spec = tuned_setting(fair.run("rnnsearch-s1"), tuning, tuned_records)
    results.put({"name": spec.name, "key": spec.key})
    listing = _listing(fair, tmp_path / "runs", results)
    assert "rnnsearch-s1   3 h of training        done" in listing
    assert "rnnsearch-s2   3 h of training        not started" in listing


def test_a_tuned_run_needs_a_row_the_tuning_has(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_text("experiment: x\nruns:\n  - {name: a, row: LSTM, tuned: recurrent_tuning, budget: {updates: 1}}\n")
    with pytest.raises(UsageError, match=r"x.yaml:3: run 'a': the tuning experiment 'recurrent_tuning' has no row 'LSTM'"):
        load(path)
    path.write_text("experiment: x\nruns:\n  - {name: a, tuned: recurrent_tuning, budget: {updates: 1}}\n")
    with pytest.raises(UsageError, match="x.yaml:3: run 'a': tuned names a tuning experiment"):
        load(path)


def test_the_variations_picture_draws_each_rows_change_against_the_base(tmp_path):
    exp = load("table3")

    def record(name, row, bleu, ppl, paper, seed=1):
        return {"name": name, "row": row, "label": "", "set": {}, "seed": seed, "paper": paper, "updates": 2000,
                "train_seconds": 60.0, "parameters": 1, "valid_ppl": ppl, "bleu": bleu, "chrf": 0.0}

    base = {"ppl": 4.92, "bleu": 25.8}
    records = {"tiny": record("tiny", "base", 10.0, 20.0, base),
               "tiny-seed2": record("tiny-seed2", "base", 11.0, 22.0, base, seed=2),
               "A-h1": record("A-h1", "A", 9.0, 23.1, {"ppl": 5.29, "bleu": 24.9}),
               "A-h1-s2": record("A-h1-s2", "A", 9.0, 23.1, {"ppl": 5.29, "bleu": 24.9}, seed=2),
               "C-N2": record("C-N2", "C", 0.0, 640.0, {"ppl": 5.19, "bleu": 25.3}),  # did not train: not drawn
               "C-N6-warmup1000": record("C-N6-warmup1000", "C", 3.0, 70.0, {"ppl": 4.88, "bleu": 25.5})}
    for r in records.values():  # one variation a row, whatever its settings
        r["set"] = {"model.x": r["name"][:4]} if r["row"] != "base" else {}
    rows, noise = _paper_changes(exp, list(records.values()))
    sd = 2 ** -0.5  # the stdev of 10 and 11; of 20 and 22 it is twice that
    assert noise == pytest.approx({"bleu": sd, "valid_ppl": 2 * sd})
    # paired with the base of its own seed (-1 and -2 BLEU: -1.5), its two seeds shrink the margin by √2;
    # the diagnostics (C-N6-warmup1000) are not the paper's rows: not drawn, not judged
    assert rows == [pytest.approx({"name": "A: x=A-h1", "bleu": -1.5, "ppl": 100 * (23.1 / 20 + 23.1 / 22 - 2) / 2,
                                   "bleu_margin": 2 * 2 ** 0.5 * sd / 2 ** 0.5,
                                   "ppl_margin": 100 * 2 * 2 ** 0.5 * 2 * sd / 21.0 / 2 ** 0.5,
                                   "paper_bleu": -0.9, "paper_ppl": 100 * (5.29 / 4.92 - 1)})]
    table = render(exp, records, tmp_path)
    assert "variations.png" in table and "| C | C-N2 |" in table and table.index("| base |") < table.index("| A |")
    # the table judges the two seeds together, as the picture does: -1.5 BLEU, the margin of two pairs
    assert "| A: x=A-h1 | 1, 2 | -0.90 | -1.50 (± 1.41) | the paper's direction |" in table
    assert "(a diagnostic, not judged)" in table and "C: x=C-N6-w" not in table and "reproduced" not in table
    assert "did not train (perplexity 640): no verdict" in table
    assert (tmp_path / "variations.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_task_that_scores_its_own_runs_goes_through_the_runner(tmp_path):
    """An image task's run through `aiayn experiment`: its validation logs bits per dimension and no perplexity,
    and the record holds the task's own figures (Task.figures), tabulated under their own heading."""
    (tmp_path / "x.yaml").write_text(
        "experiment: digits-micro\ntitle: digits, a few updates\n"
        "defaults: {task: digits, preset: local, seed: 1, budget: {updates: 3}, set: {model.d_model: 16, model.n_heads: 2, "
        "model.d_ff: 32, train.valid_every: 3, train.save_every: 3, train.max_tokens: 2048}}\n"
        "evaluate: {split: test, checkpoint: best}\nruns:\n  - {name: local}\n")
    aiayn("experiment", str(tmp_path / "x.yaml"), "--runs", str(tmp_path / "runs"), "--results",
          str(tmp_path / "results"), OMP_NUM_THREADS="1")
    record = json.loads((tmp_path / "results" / "digits-micro" / "results.json").read_text())["local"]
    assert record["updates"] == 3 and record["test_images"] == 199 and "valid_ppl" not in record
    assert record["checkpoint"] == "best.safetensors"  # evaluate.checkpoint: best
    assert abs(record["test_bits_per_dim"] - record["valid_bits_per_dim"]) < 1  # the same model on two splits
    table = (tmp_path / "results" / "digits-micro" / "table.md").read_text()
    assert "bits per dimension on the test split" in table and "| test bits/dim |" in table
    assert "the trainer's best checkpoint (by development BLEU where it validates with BLEU, else by validation NLL)" in table
