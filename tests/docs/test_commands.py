"""Every command README.md, BENCHMARKS.md and docs/*.md show is runnable as written (issue 46, "commands
runnable as written"): each ``aiayn ...`` and ``python -m benchmarks.NAME ...`` is parsed by the real argument
parser (``aiayn.app.cli.build_parser``; the benchmark's own, caught as it returns from ``parse_args``, before
the benchmark does anything), and fails on an unknown flag, a missing required argument, a bad choice or a
placeholder (``RUN``, ``runs/NAME``, ``S``, ``…``, ``{a,b}``, an undefined ``$VAR``). A removed benchmark's command,
kept in a ``text`` fence as the record of what made a figure, parses with that benchmark as it was at the commit
the fence names.

A command is what a page shows as one: a line of a fenced shell block (with ``\\`` continuations joined and
``VAR=value`` lines of the same block substituted), a code span in a table row that gives a benchmark or an
aiayn command with an argument, or a code span in prose that gives at least two options (a bare
``aiayn evaluate`` names the command, it is not one).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import re
import shlex
import subprocess
import sys
import types
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "BENCHMARKS.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
SPAN = re.compile(r"`([^`\n]+)`")
ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\S+)\s*(?:#.*)?$")
ENV = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)+")
SCRIPTS = ("python -m benchmarks.", "python -m checks.")  # the repository's scripts beside the package
CAPS = re.compile(r"^[A-Z][A-Z0-9_]*$")  # RUN, NAME, DATA, S: a word to replace, not a value


def _segments(line: str) -> list[str]:
    """The aiayn / benchmark commands of one shell line: comments dropped, split at pipes and ``&&``, the
    leading environment assignments removed."""
    try:
        tokens = shlex.split(line, comments=True)
    except ValueError:  # unbalanced quotes: a command kept whole, so that the check reports it
        return [line.strip()] if line.strip().startswith(("aiayn ", *SCRIPTS)) else []
    text = shlex.join(tokens)
    out = []
    for seg in re.split(r"\s+(?:'\|'|'&&'|';')\s+", text):
        seg = ENV.sub("", seg.strip())
        if seg.startswith(("aiayn ", *SCRIPTS)) or seg == "aiayn":
            out.append(seg)
    return out


def page_commands(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    found: list[str] = []
    for block in FENCE.finditer(text):
        if block.group(1) not in ("bash", "sh", "shell", ""):
            continue
        variables: dict[str, str] = {}
        for line in block.group(2).replace("\\\n", " ").splitlines():
            if m := ASSIGN.match(line.strip()):
                variables[m.group(1)] = m.group(2)
                continue
            line = re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m, v=variables: v.get(m.group(1), m.group(0)), line)
            found += _segments(line)
    for line in FENCE.sub("", text).splitlines():
        for span in SPAN.findall(line):
            if span.count(" --") >= 2 or line.lstrip().startswith("|") and (
                    span.startswith(SCRIPTS) or len(span.split()) > 2):
                found += _segments(span)
    return found


COMMANDS = sorted({(page.relative_to(ROOT).as_posix(), c) for page in PAGES for c in page_commands(page)})


def placeholders(argv: list[str]) -> list[str]:
    bad = []
    for arg in argv:
        parts = re.split(r"[/=,:]", arg)
        if ("…" in arg or "..." in arg or re.search(r"[{}<>$]", arg)
                or any(CAPS.match(p) and (len(p) > 1 or p == arg) for p in parts)):
            bad.append(arg)
    return bad


class _Parsed(Exception):
    """Raised in place of returning from ``parse_args``: the command parsed; the benchmark does not run."""


def parse_error(argv: list[str], monkeypatch) -> str | None:
    """What the real parser says about ``argv`` (None: it parses). GPUs are assumed present: a page may
    show a CUDA command, and this machine's hardware is not the page's concern."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 8)
    err = io.StringIO()
    if argv[0] == "aiayn":
        from aiayn.app.cli import build_parser

        try:
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
                build_parser().parse_args(argv[1:])
        except SystemExit as e:
            return err.getvalue().strip() or f"exit {e.code}"
        return None
    name = argv[2]
    source = ROOT / (name.replace(".", "/") + ".py")
    if not source.is_file():
        return f"no module {name}"
    if "parse_args" not in source.read_text(encoding="utf-8"):  # no options: it must be called bare
        return None if len(argv) == 3 else f"{name} takes no arguments"
    return _main_error(importlib.import_module(name).main, name, argv, monkeypatch)


def _main_error(main, name: str, argv: list[str], monkeypatch) -> str | None:
    """What ``main`` (a benchmark's) says about ``argv``, stopped as its parser returns (None: it parses)."""
    err = io.StringIO()
    original = argparse.ArgumentParser.parse_args

    def parse_then_stop(self, args=None, namespace=None):
        original(self, args, namespace)
        raise _Parsed

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_then_stop)
    monkeypatch.setattr(sys, "argv", [name, *argv[3:]])
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            main()
    except _Parsed:
        return None
    except SystemExit as e:
        return err.getvalue().strip().splitlines()[-1] if err.getvalue().strip() else f"exit {e.code}"
    return f"{name}.main() returned without parsing its arguments"


def test_the_pages_show_commands():
    pages = {p for p, _ in COMMANDS}
    assert len(COMMANDS) > 100 and {"README.md", "BENCHMARKS.md", "docs/music.md"} <= pages, len(COMMANDS)


# Pages another piece of work owns, to fix there; strict, so that the fix shows here as an unexpected pass
NOT_YET: dict[tuple[str, str], str] = {}  # (page, command) -> why it may fail for now
CASES = [pytest.param(p, c, id=f"{p}: {c[:70]}",
                      marks=[pytest.mark.xfail(reason=NOT_YET[p, c], strict=True)] if (p, c) in NOT_YET else [])
         for p, c in COMMANDS]


@pytest.mark.parametrize(("page", "command"), CASES)
def test_command_parses_as_written(page: str, command: str, monkeypatch):
    try:
        argv = shlex.split(command)
    except ValueError as e:
        pytest.fail(f"{page}: `{command}` is not one shell command ({e})")
    bad = placeholders(argv)
    assert not bad, f"{page}: `{command}` has placeholders {bad}: write the command that gave the figure"
    error = parse_error(argv, monkeypatch)
    assert error is None, f"{page}: `{command}` does not parse: {error}"


@pytest.mark.parametrize(("argv", "expected"), [
    ("aiayn evaluate --model RUN", ["RUN"]), ("aiayn serve --model runs/NAME", ["runs/NAME"]),
    ("python -m benchmarks.profile train --size S", ["S"]), ("aiayn evaluate --model runs/quickstart-…", ["runs/quickstart-…"]),
    ("python -m benchmarks.long_sequences --lengths {1024,4096}", ["{1024,4096}"]), ("aiayn evaluate --model $M", ["$M"]),
    ("aiayn train --set train.lr_scale=0.03 --out runs/cpu/ir-ul64", []), ("aiayn evaluate --model README.md", []),
])
def test_placeholders_are_found(argv: str, expected: list[str]):
    assert placeholders(shlex.split(argv)) == expected


COMMIT = re.compile(r"\bcommit ([0-9a-f]{7,40})\b")


def historical_commands(page: Path) -> list[tuple[str, str]]:
    """(commit, command) of each benchmark command in a ``text`` fence: a removed benchmark's command kept as
    the record of what made a figure, the fence naming the commit the benchmark was last in."""
    found = []
    for block in FENCE.finditer(page.read_text(encoding="utf-8")):
        commit = COMMIT.search(block.group(2))
        for line in block.group(2).replace("\\\n", " ").splitlines():
            if block.group(1) == "text" and line.startswith("python -m benchmarks."):
                assert commit, f"{page.name}: `{line[:60]}` is kept as text but its fence names no commit"
                found += [(commit[1], seg) for seg in _segments(line)]
    return found


HISTORY = sorted({(page.relative_to(ROOT).as_posix(), *c) for page in PAGES for c in historical_commands(page)})


@pytest.mark.parametrize(("page", "commit", "command"), HISTORY, ids=[f"{p}: {c[:60]}" for p, _, c in HISTORY])
def test_a_removed_benchmarks_command_parsed_at_its_commit(page: str, commit: str, command: str, monkeypatch):
    """A figure made by a benchmark that is gone (an experiment now) keeps its command as text, with the commit
    where the benchmark last was: at that commit the command parses with the benchmark's own parser."""
    argv = shlex.split(command)
    name = argv[2]
    shown = subprocess.run(["git", "show", f"{commit}:{name.replace('.', '/')}.py"], cwd=ROOT, capture_output=True,
                           text=True)
    assert (ROOT / ".git").exists(), "these commands are checked at their commits: run the tests in a git clone"
    assert shown.returncode == 0, f"{page}: {name} is not in commit {commit}: {shown.stderr.strip()}"
    module = types.ModuleType(name)
    module.__package__, module.__file__ = "benchmarks", str(ROOT / f"{name.replace('.', '/')}.py")  # as it was
    exec(compile(shown.stdout, f"{commit}:{name}", "exec"), module.__dict__)
    assert not placeholders(argv), f"{page}: `{command}` has placeholders {placeholders(argv)}"
    error = _main_error(module.main, name, argv, monkeypatch)
    assert error is None, f"{page}: `{command}` does not parse at {commit}: {error}"


def test_a_wrong_command_fails(monkeypatch):
    assert "unrecognized" in parse_error(["aiayn", "evaluate", "--model", "x", "--no-such-flag"], monkeypatch)
    assert "required" in parse_error(["python", "-m", "benchmarks.distill", "--threads", "1"], monkeypatch)
    assert parse_error(["python", "-m", "benchmarks.distill", "--teacher", "a", "--student", "b"], monkeypatch) is None
