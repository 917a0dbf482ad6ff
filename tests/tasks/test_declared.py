"""Options owned by tasks (issue 43): each task's options dataclasses are the one list of its options;
the command line's arguments and the refusals come from them, for every task and command."""

from __future__ import annotations

import pytest

import aiayn.tasks as tasks
from aiayn.app.cli import build_parser
from aiayn.errors import ConfigError, UsageError
from aiayn.tasks.declared import filled
from aiayn.tasks.music import MusicGenerate

COMMANDS = ("train", "evaluate", "generate")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_declared_option_is_an_argument_of_its_command(command):
    """Each option a task declares is one argument of its command (a setting without a flag: none), in a group
    naming the tasks that read it; nothing else adds a task's option."""
    parser = build_parser()._subparsers._group_actions[0].choices[command]
    groups = {a.dest: g.title for g in parser._action_groups for a in g._group_actions}
    helps = {a.dest: a.help for a in parser._actions}
    for name, options in tasks.readers(command):
        for o in options:
            if o.flag is None:
                assert o.dest not in groups
                continue
            readers = [n for n, opts in tasks.readers(command) if any(x.dest == o.dest for x in opts)]
            assert groups[o.dest] == f"{', '.join(readers)} models", (name, o.name)
            assert o.help in helps[o.dest], (name, o.name)  # one task's words first, the others' after "TASK: "


@pytest.mark.parametrize("command", COMMANDS)
def test_every_task_refuses_the_options_it_does_not_declare(command):
    """Given to a task that does not declare it, every declared option is refused in one line naming who
    reads it; given to its own task, it passes."""
    for task in tasks.registry().values():
        for name, options in tasks.readers(command):
            for o in options:
                if name == task.name or o.name in task.reads_for(command):
                    tasks.check_options(task, command, {o.name: "x"})
                    continue
                with pytest.raises(UsageError) as error:
                    tasks.check_options(task, command, {o.name: "x"})
                who, _, why = str(error.value).partition("; ")
                assert o.shown in who and name in who and why.endswith(f": drop {o.shown}"), str(error.value)


def test_a_tasks_options_take_their_defaults_and_ranges():
    """The dataclass holds the task's defaults (what a None from the command line means) and checks ranges."""
    given = tasks.given_options("generate", vars(build_parser().parse_args(["generate", "--model", "m"])))
    assert set(given) == {"primers", "primer_tokens", "length", "rule", "classes"} and not any(given.values())
    assert filled(MusicGenerate, given) == MusicGenerate(primers=None, primer_tokens=None, length=512, rule="none")
    with pytest.raises(ConfigError, match="^--primer-tokens must be an integer >= 4"):
        filled(MusicGenerate, {"primer_tokens": 2})


def test_musics_unlikelihood_is_declared_so_other_tasks_refuse_it_by_name(tmp_path, capsys):
    """train.unlikelihood is music's (a --set key, no flag): music's settings take it and check its range;
    translation refuses it in one line naming music, before anything is written."""
    from aiayn.app.cli import main
    from aiayn.training.config import TrainConfig

    music = tasks.get("music")
    assert "unlikelihood" in music.reads_for("train") and tasks.flag("train", "unlikelihood") == "train.unlikelihood"
    train = build_parser()._subparsers._group_actions[0].choices["train"]
    assert "train.unlikelihood (music)" in next(a.help for a in train._actions if a.dest == "set")  # --set's help
    assert TrainConfig.from_dict({"unlikelihood": 2.0}, music.train_settings).task_settings.unlikelihood == 2.0
    with pytest.raises(ConfigError, match="^train.unlikelihood must be"):
        TrainConfig.from_dict({"unlikelihood": -1.0}, music.train_settings)
    assert main(["train", "--set", "train.unlikelihood=1", "--out", str(tmp_path / "run")]) == 1
    assert capsys.readouterr().err == ("error: train.unlikelihood is for music; --task translation does not read it: "
                                       "drop train.unlikelihood\n")
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("command", ["grade", "parse"])
def test_a_tasks_own_command_is_made_from_its_declarations(command):
    """`aiayn grade` and `aiayn parse` (``Task.commands``) are made from the ``Command`` their task declares:
    each field of its options dataclass is one argument with the field's default and help, and the help
    keeps its examples (parse adds its task's decoding defaults)."""
    from aiayn.tasks.declared import declared, shown
    from aiayn.tasks.music_grade import GRADE
    from aiayn.tasks.parsing import PARSE

    spec = {"grade": GRADE, "parse": PARSE}[command]
    assert any(t.commands.get(command, (None,))[0] == spec.add for t in tasks.registry().values())
    parser = build_parser()._subparsers._group_actions[0].choices[command]
    actions = {a.dest: a for a in parser._actions}
    for o in declared(spec.options):
        default = list(o.default) if isinstance(o.default, tuple) else o.default
        assert actions[o.dest].default == default and actions[o.dest].help == o.help.format(default=shown(o.default))
    assert (parser.description, parser.epilog) == (spec.description, spec.epilog) and "example" in parser.format_help()
    if spec.decoding is not None:
        assert actions["beam"].default == spec.decoding.beam_size


def test_a_shared_options_help_names_each_tasks_default_where_they_differ():
    """The help of an option every task reads names each task's default, from the declarations (``Task.defaults``,
    each task's train config, ``Task.decoding``): one value where they agree."""
    from aiayn.tasks.options import by_task

    assert by_task({"a": 1, "b": 1}) == "default 1"
    assert by_task({"a": 4, "b": 10, "c": 10}) == "default: a 4, b and c 10"
    choices = build_parser()._subparsers._group_actions[0].choices
    helps = {command: {a.dest: " ".join(a.help.split()) for a in choices[command]._actions if a.help}
             for command in ("train", "generate", "evaluate")}
    for field in ("samples", "temperature", "top_k", "top_p"):
        values = {name: t.defaults["generate"][field] for name, t in tasks.registry().items() if t.defaults}
        assert by_task(values) in helps["generate"][field]
    assert "default: music 4, digits and superres 10" in helps["generate"]["samples"]
    trained = {name: t.train_config(None, {}) for name, t in tasks.registry().items()}
    assert by_task({name: c.warmup for name, c in trained.items()}) in helps["train"]["train.warmup"]
    assert f"music {trained['music'].warmup}" in helps["train"]["train.warmup"]
    parsing = tasks.get("parsing").decoding
    assert f"parsing {parsing.beam_size}" in helps["evaluate"]["beam"] and "default 0" in helps["evaluate"]["min_len"]
