"""Tasks own their life cycle (issue 19): a new task is one registration, the command line is a table
built from the registries, and its functions stay short."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import aiayn.tasks as tasks
from aiayn.app.cli import build_parser, main
from aiayn.model.config import LanguageModelConfig
from aiayn.tasks import LanguageModelTask, Task

APP = Path(__file__).resolve().parent.parent / "src" / "aiayn" / "app"
BOS, EOS, PAD = 1, 2, 0


def _counting(n: int) -> list[int]:
    """A sequence a tiny model learns at once: 3, 4, 5 ... wrapping inside a vocabulary of 16."""
    return [3 + (n + i) % 13 for i in range(24)]


def _toy_task() -> Task:
    def build(setup, model, train, data):
        seqs = [_counting(n) for n in range(data["pieces"])]
        return LanguageModelTask(seqs, seqs[:4], 16, train.max_tokens, BOS, EOS, PAD)

    def evaluate(request):
        return f"toy model {request.model}: evaluated"

    return Task("toy", "a counting toy (tests only)", presets={"small": {}}, preset_help="small",
                train=dict(max_tokens=256, warmup=4, max_steps=3, log_every=1, valid_every=3, save_every=3,
                           valid_bleu_sentences=0, label_smoothing=0.0),
                model_config=lambda **f: LanguageModelConfig.from_dict(
                    dict(vocab_size=16, pad_id=PAD, bos_id=BOS, eos_id=EOS, d_model=16, n_heads=2, d_ff=32,
                         n_layers=1, max_positions=64, **f)),
                build=build, data={"pieces": 8}, evaluate=evaluate, uses="aiayn evaluate")


def test_a_new_task_is_one_registration(tmp_path, monkeypatch, capsys):
    """Registered here and nowhere else, the toy task is a --task choice, trains through the one
    training path, reports, and is evaluated by its own verb."""
    known = tasks.registry()
    monkeypatch.setattr(tasks, "registry", lambda: {**known, "toy": _toy_task()})
    assert "toy" in build_parser()._subparsers._group_actions[0].choices["train"].format_help()
    run = tmp_path / "toy"
    assert main(["train", "--task", "toy", "--out", str(run)]) == 0
    assert json.loads((run / "config.json").read_text())["task"] == "toy"
    assert "aiayn evaluate --model" in capsys.readouterr().out  # the default report
    assert main(["evaluate", "--model", str(run)]) == 0
    assert f"toy model {run}: evaluated" in capsys.readouterr().out
    assert main(["generate", "--model", str(run), "--out", str(tmp_path / "s")]) == 1  # it has no generate
    assert not (tmp_path / "s").exists()


def test_choices_and_help_come_from_the_registry():
    train = build_parser()._subparsers._group_actions[0].choices["train"]
    actions = {a.dest: a for a in train._actions}
    assert list(actions["task"].choices) == list(tasks.registry())
    assert set(actions["preset"].choices) == {p for t in tasks.registry().values() for p in t.presets}
    for task in tasks.registry().values():
        assert task.preset_help in actions["preset"].help and task.help in actions["task"].help


@pytest.mark.parametrize("path", sorted(APP.glob("*.py")), ids=lambda p: p.name)
def test_command_line_functions_fit_on_a_screen(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    long = [f"{node.name}: {node.end_lineno - node.lineno + 1} lines" for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 60]
    assert not long, long
