"""An experiment is data: a YAML file naming runs (model family, preset, seed, overrides, budget) and how
every run is evaluated. ``load`` reads one, checks it, and names the file and line of a mistake.

    experiment: table3
    defaults: {arch: transformer, preset: tiny, seed: 1, budget: {updates: 2000}}
    evaluate: {split: valid, beam: 4, alpha: 0.6}
    runs:
      - {name: tiny, row: base}
      - {name: A-h1, row: A, set: {model.n_heads: 1}, paper: {ppl: 5.29, bleu: 24.9}}

A run's ``key`` hashes everything that changes its training; a finished run whose key is unchanged is skipped.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from .. import tasks
from ..errors import UsageError
from ..training.config import load_yaml
from .positions import KINDS

FOLDER = Path(__file__).parent
RUN_KEYS = {"name", "task", "arch", "preset", "seed", "budget", "set", "options", "row", "paper", "label",
            "diagnostic", "init", "teacher", "tuned"}
EVAL_KEYS = {"split", "beam", "alpha", "average", "curve", "metric", "bins", "curve_minutes", "curve_updates",
             "valid_curve", "alignments", "by_position", "checkpoint", "against", "best_too"}


def seconds(text: str | float | int) -> float:
    """'90s', '10m', '1.5h' or a number of seconds -> seconds (more than 0)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", str(text))
    if not match or float(match[1]) <= 0:
        raise ValueError(f"{text!r} is not a duration above 0 such as 90s, 10m or 2h")
    return float(match[1]) * {"": 1, "s": 1, "m": 60, "h": 3600}[match[2]]


@dataclass(frozen=True)
class RunSpec:
    """One run: what to train (``arch``, ``preset``, ``seed``, ``set`` overrides, the experiment's ``data``) for how long
    (``updates`` or ``time`` seconds of training); ``row``, ``label``, ``paper`` and ``diagnostic`` only label the
    table."""

    name: str
    task: str = tasks.DEFAULT
    arch: str | None = None  # the task's first model family (translation: transformer)
    preset: str = "tiny"
    seed: int = 1
    updates: int | None = None
    time: float | None = None
    set: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)  # data settings of a built-in task (--set data.X)
    data: dict[str, Any] = field(default_factory=dict)
    init: str | None = None  # a trained model (a --model) whose weights the run starts from: fine-tuning
    teacher: str | None = None  # a run of this experiment whose beam outputs are this run's targets (distillation)
    teacher_key: str = ""  # that run's key (set by ``load``), so a teacher trained again retrains its student
    tuned: str | None = None  # a tuning experiment whose best setting of this run's row this run takes (``tuned_setting``)
    tuned_from: str = ""  # the tuning run whose setting it took (set by ``tuned_setting``)
    row: str = ""
    label: str = ""
    paper: dict[str, float] = field(default_factory=dict)
    diagnostic: bool = False  # a run beside the paper's rows that answers a question of ours: tabulated, not judged

    def overrides(self) -> dict[str, Any]:
        """The ``--set`` fields of ``aiayn train`` that make this run."""
        limits = {"train.max_steps": self.updates} if self.updates else {}
        limits |= {"train.max_time": self.time} if self.time else {}
        return {"train.seed": self.seed, **limits, **self.set}

    @property
    def key(self) -> str:
        """What makes the trained model, hashed: a change here means the run must be trained again."""
        what = {"arch": self.arch, "preset": self.preset, "set": self.overrides(), "data": self.data}
        # fields added later count only when set, so the keys of records written before them still match
        what |= {name: getattr(self, name) for name in ("task", "options", "init", "teacher", "teacher_key", "tuned_from")
                 if getattr(self, name) != getattr(_UNSET, name)}
        return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:16]

    @property
    def budget(self) -> str:
        if self.updates:
            return f"{self.updates:,} updates"
        return f"{self.time / 3600:g} h of training" if self.time >= 3600 else f"{self.time / 60:g} min of training"


_UNSET = RunSpec(name="")  # every field at its default


@dataclass(frozen=True)
class Evaluation:
    """How every run of an experiment is scored: translate ``split`` with beam ``beam`` and ``alpha`` with the
    last checkpoint (``average: none``, as Table 3). ``metric``: bleu, or exact (sequence accuracy, for
    synthetic tasks). ``bins``: source-length bin edges in words (Bahdanau et al.'s Figure 2). ``curve``:
    also score the checkpoints nearest ``curve_minutes`` of training (or those of ``curve_updates``), for
    curves against time and FLOPs. ``valid_curve``: the trainer's validation NLL against time, to choose by.
    ``alignments``: how many sentences of 8-14 words (the first of the split) keep each run's encoder-decoder
    attention in its record, drawn side by side (Bahdanau et al.'s Figure 3). ``by_position``: for chorale models,
    NLL by position of the test chorales scored whole and chained two by two (``positions.KINDS``). ``checkpoint``:
    last (the default) or best, the run's best by validation NLL, for runs that overfit within their budget.
    ``against``: a row whose run of each seed every other row's run of that seed is compared with (the BLEU
    difference, its paired bootstrap interval and p-value, on the same sentences). ``best_too``: also score the
    trainer's best checkpoint (its best development BLEU: early stopping), recorded as ``at_best``; a run scored
    before the spec asked for it gets it from the same command, without training."""

    split: str = "valid"
    beam: int = 4
    alpha: float = 0.6
    average: str = "none"
    metric: str = "bleu"
    bins: tuple[int, ...] = ()
    curve: bool = False
    curve_minutes: tuple[float, ...] = (5, 10, 20, 30, 45, 60, 90, 120, 150, 180)
    curve_updates: tuple[int, ...] = ()  # instead of minutes: the checkpoints of these updates
    valid_curve: bool = False  # draw each run's validation NLL against training time, and tabulate its best
    alignments: int = 0
    by_position: tuple[str, ...] = ()
    checkpoint: str = "last"  # or best: the run's best by validation NLL (a run that overfits within its budget)
    against: str = ""  # a row to compare the others with, seed by seed
    best_too: bool = False  # also score the trainer's best checkpoint (``at_best``)


@dataclass(frozen=True)
class Experiment:
    name: str
    title: str
    runs: tuple[RunSpec, ...]
    evaluate: Evaluation
    path: Path
    notes: str = ""
    data: dict[str, Any] = field(default_factory=dict)  # a synthetic task (``synthetic.write_task``); none: the Bible

    def run(self, name: str) -> RunSpec:
        for spec in self.runs:
            if spec.name == name:
                return spec
        raise UsageError(f"{self.path} has no run {name!r}; its runs: {', '.join(r.name for r in self.runs)}")


def names() -> list[str]:
    """The experiments that ship with aiayn."""
    return sorted(p.stem for p in FOLDER.glob("*.yaml"))


def find(name_or_path: str | Path) -> Path:
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml"):
        if not path.is_file():
            raise UsageError(f"no experiment file {path}; give a YAML file or one of: {', '.join(names())}")
        return path
    if (FOLDER / f"{name_or_path}.yaml").is_file():
        return FOLDER / f"{name_or_path}.yaml"
    raise UsageError(f"unknown experiment {name_or_path!r}; choose one of {', '.join(names())}, or give a YAML file")


def load(name_or_path: str | Path) -> Experiment:
    """The experiment a name (``table3``) or a YAML file describes, checked."""
    path = find(name_or_path)
    text = path.read_text(encoding="utf-8")
    try:
        tree, doc = yaml.compose(text), load_yaml(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        raise UsageError(f"{where}: not valid YAML ({getattr(e, 'problem', e)}); fix the file") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list) or not doc["runs"]:
        raise UsageError(f"{path}: an experiment needs 'experiment' and a non-empty list 'runs'")
    lines = _run_lines(tree)
    defaults = doc.get("defaults") or {}
    data = dict(doc.get("data") or {})
    runs = tuple(_run(path, lines[i], {**defaults, **entry, "set": {**defaults.get("set", {}), **entry.get("set", {})}},
                      data) for i, entry in enumerate(doc["runs"]))
    seen = [r.name for r in runs]
    if len(set(seen)) != len(seen):
        twice = next(n for n in seen if seen.count(n) > 1)
        raise UsageError(f"{path}: run {twice!r} is named twice; give each run its own name")
    runs = _with_teachers(path, runs, lines)
    for i, spec in enumerate(runs):
        if spec.tuned and not any(r.row == spec.row for r in load(spec.tuned).runs):
            raise UsageError(f"{path}:{lines[i] if i < len(lines) else 1}: run {spec.name!r}: the tuning experiment "
                             f"{spec.tuned!r} has no row {spec.row!r} to take a setting from")
    return Experiment(str(doc.get("experiment") or path.stem), str(doc.get("title", "")), runs,
                      _evaluation(path, doc.get("evaluate") or {}), path, str(doc.get("notes", "")), data)


def _with_teachers(path: Path, runs: tuple[RunSpec, ...], lines: list[int]) -> tuple[RunSpec, ...]:
    """Each distilled run with its teacher's key; its teacher must be listed before it (trained first)."""
    earlier: dict[str, RunSpec] = {}
    out = []
    for i, spec in enumerate(runs):
        if spec.teacher is not None:
            teacher = earlier.get(spec.teacher)
            if teacher is None:
                raise UsageError(f"{path}:{lines[i] if i < len(lines) else 1}: run {spec.name!r}: its teacher "
                                 f"{spec.teacher!r} is not a run listed before it")
            spec = replace(spec, teacher_key=teacher.key)
        earlier[spec.name] = spec
        out.append(spec)
    return tuple(out)


def _run_lines(tree: yaml.Node) -> list[int]:
    """The 1-based line of each entry of ``runs``, for error messages."""
    for key, value in getattr(tree, "value", []):
        if getattr(key, "value", None) == "runs":
            return [node.start_mark.line + 1 for node in value.value]
    return []


def _run(path: Path, line: int, entry: Any, data: dict[str, Any]) -> RunSpec:
    where = f"{path}:{line}"
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"]:
        raise UsageError(f"{where}: each run is a mapping with a name, e.g. {{name: tiny}}")
    unknown = sorted(set(entry) - RUN_KEYS)
    if unknown:
        raise UsageError(f"{where}: run {entry['name']!r} has unknown key {unknown[0]!r}; "
                         f"known: {', '.join(sorted(RUN_KEYS))}")
    budget = entry.get("budget") or {}
    if not isinstance(budget, dict) or set(budget) - {"updates", "time"} or len(budget) != 1:
        raise UsageError(f"{where}: run {entry['name']!r} needs a budget of updates or time, e.g. "
                         "budget: {updates: 2000} or budget: {time: 3h}")
    if not isinstance(entry.get("init", ""), str):
        raise UsageError(f"{where}: run {entry['name']!r}: init is the model to start from, e.g. init: runs/gpu/g8k")
    if entry.get("teacher") is not None and (not isinstance(entry["teacher"], str) or {"init", "options"} & set(entry)
                                             or entry.get("arch", "transformer") != "transformer"
                                             or entry.get("task", tasks.DEFAULT) != tasks.DEFAULT):
        raise UsageError(f"{where}: run {entry['name']!r}: teacher names an earlier run whose beam outputs on the "
                         "training sources this run learns: a translation transformer on its teacher's data (no "
                         "init, options, other arch or task)")
    if entry.get("tuned") is not None and (not isinstance(entry["tuned"], str) or not entry.get("row")):
        raise UsageError(f"{where}: run {entry['name']!r}: tuned names a tuning experiment whose best setting of the "
                         "run's row it takes, e.g. {tuned: recurrent_tuning, row: RNNsearch}")
    if not isinstance(entry.get("options", {}), dict):
        raise UsageError(f"{where}: run {entry['name']!r}: options is a mapping of data settings, e.g. {{transpose: 5}}")
    for key in entry.get("set", {}):
        if not re.fullmatch(r"(model|train)\.\w+", str(key)):
            raise UsageError(f"{where}: run {entry['name']!r}: set {key!r} is not model.FIELD or train.FIELD")
    try:
        time = seconds(budget["time"]) if "time" in budget else None
    except ValueError as e:
        raise UsageError(f"{where}: run {entry['name']!r}: {e}") from None
    updates = budget.get("updates")
    if updates is not None and (not isinstance(updates, int) or updates < 1):
        raise UsageError(f"{where}: run {entry['name']!r}: budget updates must be a whole number above 0")
    given = {k: v for k, v in entry.items() if k != "budget"}
    return RunSpec(**given, updates=updates, time=time, data=data)


def _evaluation(path: Path, values: Any) -> Evaluation:
    unknown = sorted(set(values) - EVAL_KEYS) if isinstance(values, dict) else ["(not a mapping)"]
    if unknown:
        raise UsageError(f"{path}: evaluate has unknown key {unknown[0]!r}; known: {', '.join(sorted(EVAL_KEYS))}")
    if values.get("average", "none") != "none":
        raise UsageError(f"{path}: evaluate.average may only be none (the last checkpoint, as Table 3)")
    if values.get("checkpoint", "last") not in ("last", "best"):
        raise UsageError(f"{path}: evaluate.checkpoint is last or best (the best by validation NLL)")
    if values.get("split", "valid") not in ("valid", "test"):
        raise UsageError(f"{path}: evaluate.split is valid or test")
    if not set(values.get("by_position", ())) <= set(KINDS):
        raise UsageError(f"{path}: evaluate.by_position lists some of {', '.join(KINDS)}")
    return Evaluation(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})


def tuned_setting(spec: RunSpec, tuning: Experiment, records: dict[str, dict[str, Any]]) -> RunSpec:
    """``spec`` with the best setting of its row in ``tuning`` (a run with ``tuned``): the ``set`` fields that differ
    among that row's runs, at the values of the run with the highest BLEU in ``records`` (the tuning's results; the
    first listed wins a tie). Refused until every run of the row is scored from its current spec, so that the
    choice is made once, over the whole grid, by the rule written here rather than by whoever reads the table."""
    row = [r for r in tuning.runs if r.row == spec.row]
    missing = [r.name for r in row if records.get(r.name, {}).get("key") != r.key]
    if missing:
        raise UsageError(f"run {spec.name!r} takes the best {spec.row} setting of {tuning.name}, which has {len(missing)} "
                         f"of its {len(row)} {spec.row} runs still to train and score ({missing[0]} first); finish it "
                         f"first: aiayn experiment {tuning.name}")
    best = max(row, key=lambda r: records[r.name]["bleu"])
    varied = sorted({k for r in row for k in r.set if any(o.set.get(k) != r.set.get(k) for o in row)})
    return replace(spec, set={**spec.set, **{k: best.set[k] for k in varied if k in best.set}}, tuned_from=best.name)
