"""Tasks own their life cycle (issue 19): a new task is one registration, the command line is a table
built from the registries, and its functions stay short."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import pytest

import aiayn.tasks as tasks
from aiayn.app.cli import build_parser, main
from aiayn.model.config import LanguageModelConfig
from aiayn.tasks import LanguageModelObjective, Task
from aiayn.tasks.declared import option
from aiayn.tasks.options import decode_options, decoding_given

SRC = Path(__file__).resolve().parents[2] / "src" / "aiayn"
BOS, EOS, PAD = 1, 2, 0


def _counting(n: int) -> list[int]:
    """A sequence a tiny model learns at once: 3, 4, 5 ... wrapping inside a vocabulary of 16."""
    return [3 + (n + i) % 13 for i in range(24)]


class Toy(Task):
    """A counting toy (tests only): a task is a subclass, its hooks methods."""

    name, help = "toy", "a counting toy (tests only)"
    presets, preset_help = {"small": {}}, "small"
    train = dict(max_tokens=256, warmup=4, max_steps=3, log_every=1, valid_every=3, save_every=3,
                 valid_bleu_sentences=0, label_smoothing=0.0)
    data, objective = {"pieces": 8}, LanguageModelObjective

    def model_config(self, **fields):
        return LanguageModelConfig.from_dict(dict(vocab_size=16, pad_id=PAD, bos_id=BOS, eos_id=EOS, d_model=16,
                                                  n_heads=2, d_ff=32, n_layers=1, max_positions=64, **fields))

    def build(self, setup, model, train, data):
        seqs = [_counting(n) for n in range(data["pieces"])]
        return LanguageModelObjective(seqs, seqs[:4], 16, train.max_tokens, BOS, EOS, PAD)

    def evaluate(self, request):
        return f"toy model {request.model}: evaluated"


def _toy_task(**changes) -> Task:
    """The toy task, with ``changes`` to its class attributes (evaluate=None: it has none)."""
    return type("Toy", (Toy,), changes)()


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


def test_a_command_a_task_does_not_take_is_one_line(tmp_path, monkeypatch, capsys):
    """A task without evaluate trains; `aiayn evaluate` on its model is one line naming the tasks it takes."""
    toy = _toy_task(evaluate=None, verbs=())
    known = tasks.registry()
    monkeypatch.setattr(tasks, "registry", lambda: {**known, "toy": toy})
    run = tmp_path / "toy"
    assert main(["train", "--task", "toy", "--out", str(run)]) == 0
    capsys.readouterr()
    assert main(["evaluate", "--model", str(run)]) == 1
    err = capsys.readouterr().err
    assert err == (f"error: {run} holds a toy model; `aiayn evaluate` takes translation, music, digits, superres or "
                   "parsing models: no command takes toy models\n")


class _Half:
    """Batches and a loss, but nothing to judge the model by."""

    train_batches: list[list[int]]

    def batch(self, indices):
        return indices

    def loss(self, model, batch, epsilon):
        return None


def test_a_task_that_lacks_a_member_fails_when_made():
    """The objective's members and the task's verbs are checked when the record is made, in one line."""
    with pytest.raises(TypeError) as error:
        _toy_task(objective=_Half)
    assert str(error.value) == ("task toy: its objective _Half lacks prefetch, fingerprint, has_valid, summary, "
                                "validate, metric, describe (every member of aiayn.training.objective.Objective)")
    with pytest.raises(TypeError, match="^task toy: its verbs name evaluate but it gives no evaluate function$"):
        _toy_task(evaluate=None, verbs=("evaluate",))
    assert tasks.get("music").verbs[:2] == ("evaluate", "generate") and tasks.get("parsing").supports("parse")


@dataclasses.dataclass
class ToyGenerate:
    flavour: str | None = option(None, "toy: how the counting tastes")


def test_a_task_brings_its_options_and_commands(monkeypatch, capsys):
    """A task's own option for a built-in command (a dataclass field with its flag and help) and its
    own sub-command reach the command line through its registration alone."""

    def add_count(sub):
        p = sub.add_parser("count", help="count from 1")
        p.add_argument("--to", type=int, default=3)
        return p

    def count(args):
        return " ".join(str(n) for n in range(1, args.to + 1)) + "\n"

    toy = _toy_task(options={"generate": ToyGenerate}, commands={"count": (add_count, count)})
    known = tasks.registry()
    monkeypatch.setattr(tasks, "registry", lambda: {**known, "toy": toy})
    commands = build_parser()._subparsers._group_actions[0].choices
    assert "toy models:\n  --flavour" in commands["generate"].format_help()
    assert "--flavour" not in commands["train"].format_help()
    assert main(["count", "--to", "4"]) == 0 and capsys.readouterr().out == "1 2 3 4\n"


def test_decoding_defaults_come_from_the_task():
    """`aiayn parse` decodes with its task's decoding; `aiayn evaluate` leaves every field to the model's task."""
    parsing = tasks.get("parsing")
    parse = build_parser().parse_args(["parse", "--model", "m"])
    assert decode_options(parse) == parsing.decoding
    evaluate = build_parser().parse_args(["evaluate", "--model", "m"])
    request = tasks.EvaluateRequest("m", decoding=decoding_given(evaluate))
    assert all(task.decoding is None or request.options(task.decoding) == task.decoding
               for task in tasks.registry().values())
    assert request.options(parsing.decoding).beam_size == 21  # paper §6.3, not translation's 4


def test_choices_and_help_come_from_the_registry():
    train = build_parser()._subparsers._group_actions[0].choices["train"]
    actions = {a.dest: a for a in train._actions}
    assert list(actions["task"].choices) == list(tasks.registry())
    assert set(actions["preset"].choices) == {p for t in tasks.registry().values() for p in t.presets}
    for task in tasks.registry().values():
        assert task.preset_help in actions["preset"].help and task.help in actions["task"].help


@dataclasses.dataclass
class ToyTest:
    test: str | None = option(None, "counting test data")


def test_an_option_is_refused_in_one_place_that_knows_every_task(monkeypatch):
    """Options are declared by the tasks that read them (Task.options); check_options refuses the others
    and names who takes them, a task registered later included, with no fence written for it."""
    from aiayn.errors import UsageError

    toy = _toy_task(options={"evaluate": ToyTest})
    known = tasks.registry()
    monkeypatch.setattr(tasks, "registry", lambda: {**known, "toy": toy})
    with pytest.raises(UsageError) as error:
        tasks.check_options(tasks.get("music"), "evaluate", {"test": "x.tsv", "src": None, "tgt": None})
    assert str(error.value) == ("--test, --src and --tgt are for translation (--test also for parsing and toy); "
                                "a music model does not take it: drop --test")
    tasks.check_options(toy, "evaluate", {"test": "x.tsv", "src": None})  # its own: taken
    tasks.check_options(toy, "generate", {"temperature": 0.9, "seed": 3})  # read by no task: every task's
    with pytest.raises(UsageError, match="^--class is for class-conditional digits models; a toy model does not"):
        tasks.check_options(toy, "generate", {"classes": ["3"]})
    with pytest.raises(UsageError, match="^--compile is for translation; a music model does not take it"):
        tasks.check_options(tasks.get("music"), "evaluate", {"compile": True})
    given = tasks.given_options("evaluate", {"test": None, "src": None, "tgt": None, "compile": None})
    tasks.check_options(tasks.get("music"), "evaluate", given)  # not given (None, even for a switch): not refused


def test_a_run_written_before_tasks_owned_their_train_fields_resumes(tmp_path, monkeypatch, capsys):
    """Earlier versions wrote translation's vocab_size and valid_bleu_sentences into every run's train
    section: such a config.json still resumes; a new run of a task that does not read them refuses them."""
    from aiayn.training.config import TrainConfig

    known = tasks.registry()
    monkeypatch.setattr(tasks, "registry", lambda: {**known, "toy": _toy_task()})
    run = tmp_path / "toy"
    assert main(["train", "--task", "toy", "--out", str(run)]) == 0
    config = json.loads((run / "config.json").read_text())
    config["train"].update(vocab_size=37000, valid_bleu_sentences=0)  # as the earlier versions wrote it
    (run / "config.json").write_text(json.dumps(config))
    assert main(["train", "--out", str(run), "--resume", "--max-steps", "4"]) == 0
    assert "vocab_size" not in json.loads((run / "config.json").read_text())["train"]
    capsys.readouterr()
    assert main(["train", "--task", "toy", "--out", str(tmp_path / "new"), "--vocab-size", "100"]) == 1
    assert capsys.readouterr().err == ("error: --vocab-size is for translation; --task toy does not read it: "
                                       "drop --vocab-size\n")
    old = {"vocab_size": 8000, "max_tokens": 1536, "valid_bleu_sentences": 200}  # a translation run's, then and now
    cfg = TrainConfig.from_dict(old, tasks.get("translation").train_settings)
    assert cfg.task_settings.vocab_size == 8000 and cfg.to_dict()["valid_bleu_sentences"] == 200
    assert cfg.to_dict().keys() == {*TrainConfig.from_dict({}).to_dict(), "vocab_size", "valid_bleu_sentences"}


def test_models_say_what_they_can_do():
    """Capabilities as data: callers ask these instead of testing a model's class or config fields."""
    from aiayn.io.registry import capabilities
    from aiayn.model.config import RNNSearchConfig, TransformerConfig

    transformer = capabilities(TransformerConfig(src_vocab_size=16, n_encoder_layers=2, n_decoder_layers=3))
    assert transformer.search and not transformer.generate and transformer.export == ("hf", "ctranslate2")
    assert dict(transformer.attention) == {"cross": 3, "encoder": 2, "decoder_self": 3}
    assert dict(capabilities(RNNSearchConfig.preset("tiny", attention=True)).attention) == {"cross": 1}
    rnnencdec = capabilities(RNNSearchConfig.preset("tiny", attention=False))
    assert rnnencdec.search and not rnnencdec.attention and not rnnencdec.export
    decoder_only = capabilities(_toy_task().config("small", {}))
    assert decoder_only.generate and not decoder_only.search and not decoder_only.attention


@pytest.mark.parametrize("path", sorted([*(SRC / "app").glob("*.py"), *(SRC / "runs").glob("*.py")]),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_command_line_functions_fit_on_a_screen(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    long = [f"{node.name}: {node.end_lineno - node.lineno + 1} lines" for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno >= 60]
    assert not long, long


def test_one_gate_answers_from_the_task_and_the_architecture(tmp_path):
    """``tasks.gate``: the task's verbs first (music cannot translate), then the architecture (RNNencdec
    shows no attention; RNNsearch exports nowhere), each refusal one line naming who can; else the task."""
    from aiayn.errors import UsageError
    from aiayn.io.checkpoint import save_weights
    from aiayn.model.config import RNNSearchConfig
    from aiayn.model.rnnsearch import RNNSearch

    small = dict(src_vocab_size=20, tgt_vocab_size=20, embed_dim=8, hidden=8, maxout_dim=8)
    for name, attention in [("search", True), ("encdec", False)]:
        cfg = RNNSearchConfig(**small, attention=attention)
        save_weights(RNNSearch(cfg), cfg, tmp_path / f"{name}.safetensors", task="translation")
    assert tasks.gate(tmp_path / "search.safetensors", "attention").name == "translation"
    assert tasks.gate(tmp_path / "encdec.safetensors", "translate").name == "translation"
    refusals = {("encdec", "attention"): "translation model with no attention (RNNencdec), its source being one fixed "
                                         "vector; `aiayn attention` takes models with attention to show",
                ("search", "export"): "translation model with architecture='rnnsearch', which no exporter writes; `aiayn export` takes "
                                      "encoder-decoder Transformer models (architecture 'transformer')",
                ("search", "generate"): "translation model; `aiayn generate` takes music, digits or superres models: use "
                                        "aiayn translate / aiayn evaluate / aiayn attention / aiayn serve / aiayn export"}
    for (name, verb), text in refusals.items():
        with pytest.raises(UsageError) as e:
            tasks.gate(tmp_path / f"{name}.safetensors", verb, role="the teacher ")
        assert str(e.value) == f"the teacher {tmp_path / name}.safetensors holds a {text}"
