"""Runs an experiment: trains what is missing through the library's ``train`` (resuming interrupted runs
exactly), scores every run the same way, and keeps one small record per run in ``results.json``.

A record is written (atomically) only after its run is trained and scored, so a kill at any moment loses at
most the checkpoint interval of the run in training, or the scoring in progress; the same command continues.
A record whose key no longer matches its spec is stale: a longer budget continues the run and scores it again;
a change the run cannot take (another model, seed or data) is refused by ``train`` with what to do.
"""

from __future__ import annotations

import contextlib
import fcntl
import gzip
import json
import logging
import statistics
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .. import corpus, tasks
from ..data import read_parallel
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..inference.attention_maps import attention_maps
from ..inference.translator import Translator
from ..io.atomic import atomic_path
from ..io.checkpoint import read_header
from ..io.loader import load
from ..io.registry import capabilities
from ..io.rundir import RunDir, RunInUse
from ..metrics.bleu import by_length
from ..provenance import stamp
from ..runs import TrainRequest, train
from ..runs.distill import DistillRequest, corpus_time, distill
from ..tasks.translation import evaluate
from .flops import flops_per_update
from .positions import nll_by_position
from .spec import Experiment, RunSpec, tuned_setting
from .spec import load as load_spec

BOOTSTRAP = 1000  # resamples for each length bin's 95% interval
HYPS = "hyps"  # beside results.json: each scored checkpoint's hypotheses, for the paired bootstrap
REFERENCES = "references.txt.gz"

log = logging.getLogger("aiayn")


class Results:
    """``results.json``: {run name: record}. Each save re-reads the file under a lock and writes it atomically,
    so two commands scoring different runs side by side keep both records, and a kill never leaves half a file."""

    def __init__(self, path: Path):
        self.path = path
        self.records = self._read()

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            return json.loads(self.path.read_text()) if self.path.exists() else {}
        except (OSError, ValueError) as e:
            raise UsageError(f"{self.path} is damaged ({e}); delete it to score every run again") from None

    def done(self, spec: RunSpec) -> bool:
        return self.records.get(spec.name, {}).get("key") == spec.key

    def put(self, record: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path.with_name(self.path.name + ".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another command may be saving its own record now
            self.records = {**self._read(), record["name"]: record}
            with atomic_path(self.path) as tmp:
                tmp.write_text(json.dumps(self.records, indent=1, sort_keys=True) + "\n")


def run_experiment(exp: Experiment, runs_root: Path, results_root: Path, only: list[str] | None = None,
                   progress: Callable | None = None) -> Results:
    """Trains and scores every run of ``exp`` (or those named in ``only``) that has no current record."""
    results = Results(results_root / exp.name / "results.json")
    chosen = [exp.run(name) for name in only] if only else list(exp.runs)
    chosen = [with_tuning(spec, results_root) if spec.tuned else spec for spec in chosen]
    data = prepare_data(exp, runs_root / exp.name / "data")
    for spec in chosen:
        if results.done(spec):
            log.info("%s: done (%s)", spec.name, results.path)
            record = results.records[spec.name]
            run = RunDir(runs_root / exp.name / spec.name)
            if exp.evaluate.best_too and "at_best" not in record and run.best.is_file():  # asked for since: add it
                with taken(run) as mine:
                    if mine:
                        results.put({**record, "at_best": at_best(exp, spec, run, data, progress,
                                                                  results.path.parent / HYPS)})
            continue
        if spec.teacher and not results.done(exp.run(spec.teacher)):
            log.info("%s: skipped, its teacher %s is not trained and scored yet", spec.name, spec.teacher)
            continue
        run = RunDir(runs_root / exp.name / spec.name)
        with taken(run) as mine:  # the same command in a second shell: the two share out the runs
            if not mine:
                log.info("%s: skipped, another command is training or scoring it", spec.name)
                continue
            try:
                _train(spec, run, data, progress, runs_root / exp.name)
            except RunInUse:  # an ``aiayn train`` of its own trains into it
                log.info("%s: skipped, another command is training it", spec.name)
                continue
            results.put(score(exp, spec, run, data, progress, results.path.parent / HYPS))
    return results


@contextlib.contextmanager
def taken(run: RunDir) -> Iterator[bool]:
    """Holds ``run`` for this command from its training to its record (True), or yields False where another
    command holds it. The training's own lock ends with the training, and a second command would then score
    the same run again beside the first."""
    run.path.mkdir(parents=True, exist_ok=True)
    with open(run.path / ".experiment.lock", "w") as lock:  # flock ends with the file, a kill included
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True


def with_tuning(spec: RunSpec, results_root: Path) -> RunSpec:
    """A run with ``tuned``: its row's best setting, read from the tuning experiment's results."""
    tuning = load_spec(spec.tuned)
    return tuned_setting(spec, tuning, Results(results_root / tuning.name / "results.json").records)


def prepare_data(exp: Experiment, folder: Path) -> dict[str, str]:
    """The experiment's data files: the built-in corpus, or a synthetic task written once into ``folder``."""
    if not exp.data:
        return {}
    from .synthetic import write_task  # only the synthetic experiments need it

    return write_task(exp.data, folder)


def _train(spec: RunSpec, run: RunDir, data: dict[str, str], progress: Callable | None, runs: Path) -> None:
    """Trains ``spec`` in ``run``: resumes a run that saved, starts one that did not (the budget decides the end). A
    run with a teacher (a run in ``runs``) learns its beam outputs on the training sources (``aiayn distill``)."""
    resume = run.holds_run()
    if resume:
        _check_same_spec(spec, run)
    log.info("%s: %s %s (%s)", spec.name, "resuming" if resume else "training", run.path, spec.budget)
    if spec.teacher:
        distill(DistillRequest(teacher=runs / spec.teacher, out=run.path, preset=spec.preset,
                               overrides=spec.overrides(), resume=resume, progress=progress))
        return
    request = TrainRequest(run.path, preset=spec.preset, arch=None if resume else spec.arch, resume=resume,
                           overrides=spec.overrides(), progress=progress, task=spec.task,
                           options={"train": data.get("train"), "valid": data.get("valid")},
                           data=spec.options or None, init=None if resume else spec.init)
    train(request)


def _check_same_spec(spec: RunSpec, run: RunDir) -> None:
    """A run folder trained from another spec is not continued with this one: say how to start it afresh."""
    saved = run.read_config()
    held = (saved.get("task", tasks.DEFAULT), saved.get("arch"), saved.get("preset"))
    if held != (spec.task, spec.arch or held[1], spec.preset):
        raise UsageError(f"{run.path} holds a {' '.join(filter(None, held))} run, but the spec asks for "
                         f"{' '.join(filter(None, (spec.task, spec.arch, spec.preset)))}; delete {run.path} "
                         "to train it again")


def score(exp: Experiment, spec: RunSpec, run: RunDir, data: dict[str, str], progress: Callable | None,
          keep: Path | None = None) -> dict:
    """The record of a trained run: its budget as spent, parameters, development figures and scores; ``keep``: a
    folder for each scored checkpoint's hypotheses (gzipped), read by the report's paired bootstrap."""
    checkpoints = run.list_checkpoints()
    last = run.last_checkpoint()
    state = read_header(run.state)[1]
    events = run.events()
    valid = [e for e in events if e.get("event") == "valid" and e.get("step") == state["step"]]
    model = load(last).model
    chosen = run.model_file() if exp.evaluate.checkpoint == "best" else last
    record = {"name": spec.name, "key": spec.key, "row": spec.row, "label": spec.label, "task": spec.task,
              "arch": spec.arch, "set": spec.set, "options": spec.options, "seed": spec.seed, "paper": spec.paper,
              **({"tuned_from": spec.tuned_from} if spec.tuned_from else {}),
              "updates": state["step"],
              "train_seconds": round(state["elapsed"], 2), "parameters": model.num_parameters(),
              "checkpoint": chosen.name, "scored": stamp()}  # the commit, date and host of the scoring
    if spec.teacher:  # the distilled corpus: how many sentences, and how long the teacher took to translate them
        record.update(corpus_time(Path(run.read_config()["data"]["train"])))
    if valid:  # what the task's validation logs (images: bits per dimension, no perplexity)
        record.update({k: valid[-1][k] for k in ("valid_ppl", "valid_nll", "valid_bits_per_dim") if k in valid[-1]})
    speeds = [e["tgt_tok_s"] for e in events if e.get("event") == "train" and "tgt_tok_s" in e][1:]
    if speeds:  # the first interval holds the start-up
        record["tgt_tokens_per_s"] = statistics.median(speeds)
    record["valid_curve"] = valid_curve(events)
    figures = tasks.get(spec.task).figures
    if figures is not None:  # the task scores its own models (music: NLL per token)
        record.update(figures(chosen, exp.evaluate.split))
        if exp.evaluate.by_position:
            record.update(nll_by_position(chosen, exp.evaluate.by_position))
        return record
    def scores(path: Path) -> dict[str, Any]:
        return _scores(exp, path, data, progress, keep and keep / f"{spec.name}-{int(path.stem.split('-')[1])}.txt.gz")

    final = scores(chosen)
    record.update(final)
    if exp.evaluate.best_too and exp.evaluate.checkpoint == "last" and run.best.is_file():
        record["at_best"] = at_best(exp, spec, run, data, progress, keep)
    if exp.evaluate.curve:
        per_update = flops_per_update(run, model)
        record["flops_per_update"] = per_update
        record["curve"] = [{**point, "flops": point["step"] * per_update,
                            **(final if path == chosen else scores(path))}
                           for point, path in _curve_points(exp, events, checkpoints)]
    if exp.evaluate.alignments and "cross" in capabilities(model.config).attention:  # RNNencdec has none
        record["alignments"] = _alignments(exp, chosen, data)
    return record


def at_best(exp: Experiment, spec: RunSpec, run: RunDir, data: dict[str, str], progress: Callable | None,
            keep: Path | None = None) -> dict[str, Any]:
    """The scores of the trainer's best checkpoint (its best development figure: early stopping), its update, and
    the commit, date and host that scored it (it may be added to a record scored earlier)."""
    step = read_header(run.best)[1]["step"]
    return {"step": step, "scored": stamp(), **_scores(exp, run.best, data, progress, keep and keep / f"{spec.name}-best-{step}.txt.gz",
                                    name=spec.name)}


def valid_curve(events: list[dict]) -> list[dict[str, float]]:
    """The trainer's validation NLL at each validation, with its step, minutes of training (the clock of the
    training line just before it in the log, so a resumed run reads its own clock) and the target tokens read by
    then (each line's count since the line before; for logs older than that count, its rate times the seconds
    since the line before): the curve that chooses."""
    clock, tokens, points = 0.0, 0.0, {}
    for e in events:
        if e.get("event") == "train":
            clock = min(clock, e["elapsed"])  # a resumed run whose clock went back counts from where it is now
            tokens += e["tgt_tokens"] if "tgt_tokens" in e else e.get("tgt_tok_s", 0.0) * (e["elapsed"] - clock)
            clock = e["elapsed"]
        elif e.get("event") == "valid" and "valid_nll" in e:  # a resumed run may validate a step again: the last
            points[e["step"]] = {"step": e["step"], "minutes": round(clock / 60, 2), "tokens": round(tokens),
                                 "valid_nll": e["valid_nll"]}
    return [points[step] for step in sorted(points)]


def _curve_points(exp: Experiment, events: list[dict], checkpoints: list[Path]):
    """The saved checkpoints nearest each of ``curve_minutes`` of training, with their step and minutes."""
    elapsed = {e["step"]: e["elapsed"] for e in events if e.get("event") == "train"}
    saved = [(int(p.stem.split("-")[1]), p) for p in checkpoints]
    timed = [(step, elapsed[step] / 60, path) for step, path in saved if step in elapsed]
    chosen: dict[int, tuple[float, Path]] = {}
    if exp.evaluate.curve_updates:
        chosen = {step: (at, path) for step, at, path in timed if step in exp.evaluate.curve_updates}
    for minutes in () if exp.evaluate.curve_updates else exp.evaluate.curve_minutes:
        if timed and minutes <= timed[-1][1] + 1:
            step, at, path = min(timed, key=lambda t: abs(t[1] - minutes))
            chosen[step] = (at, path)
    if timed:
        chosen[timed[-1][0]] = timed[-1][1:]
    return [({"step": step, "minutes": round(at, 2)}, path) for step, (at, path) in sorted(chosen.items())]


def _scores(exp: Experiment, weights: Path, data: dict[str, str], progress: Callable | None,
            keep: Path | None = None, name: str | None = None) -> dict[str, Any]:
    """BLEU and chrF (or sequence accuracy) of ``weights`` on the evaluation split, with beam and α as the spec
    says, and by source length in words where the spec gives bins (Bahdanau et al.'s Figure 2); the hypotheses
    written to ``keep`` (and the references beside them, once) when given."""
    ev = exp.evaluate
    split = _split(exp, data)
    name = name or weights.parent.parent.name  # a checkpoint's run: RUN/checkpoints/step-N.safetensors
    bar = progress(unit="sent", leave=False, desc=f"{name}: {ev.split}, beam {ev.beam}") \
        if progress else None
    try:
        scores, _, pairs, hyps = evaluate(weights, split, None, None, DecodeOptions(beam_size=ev.beam, alpha=ev.alpha),
                                          progress=bar)
    finally:
        if bar is not None:
            bar.close()
    result: dict[str, Any] = {"bleu": scores.bleu, "chrf": scores.chrf, "sentences": len(hyps)}
    if keep is not None:
        write_lines(keep, hyps)
        if not (keep.parent / REFERENCES).is_file():
            write_lines(keep.parent / REFERENCES, pairs.tgt)
        result["hyps"] = keep.name
    if ev.metric == "exact":
        result["accuracy"] = sum(h == r for h, r in zip(hyps, pairs.tgt)) / len(hyps)
    if ev.bins:
        result["by_length"] = by_length(pairs.src, pairs.tgt, hyps, ev.bins, bootstrap=BOOTSTRAP)
    return result


def _split(exp: Experiment, data: dict[str, str]) -> str:
    """The evaluation split's file: the experiment's own data, else the built-in corpus's."""
    return data.get(exp.evaluate.split) or str(corpus.builtin(exp.evaluate.split))


def _alignments(exp: Experiment, weights: Path, data: dict[str, str]) -> list[dict[str, Any]]:
    """The encoder-decoder attention of the split's first ``evaluate.alignments`` sources of 8-14 words, each on the
    model's own translation: RNNsearch's α, the Transformer's last layer as the mean of its heads (Bahdanau et
    al.'s Figure 3)."""
    translator = Translator.load(weights)
    sources = [s for s in read_parallel(_split(exp, data)).src if 8 <= len(s.split()) <= 14]
    out = []
    for source in sources[: exp.evaluate.alignments]:
        translation, layers, queries, keys = attention_maps(translator, source, "cross", exp.evaluate.beam)
        out.append({"source": source, "translation": translation, "queries": queries, "keys": keys,
                    "weights": [[round(float(w), 4) for w in row] for row in layers[-1].mean(0)]})
    return out


def write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as tmp, gzip.open(tmp, "wt", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))


def read_lines(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return f.read().splitlines()
