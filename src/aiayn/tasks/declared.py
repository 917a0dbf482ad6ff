"""Options a task declares: the fields of a dataclass, one per command it has options for, each field
carrying its flag and help (``option``). The command line's arguments, ``check_options``' refusals and
the help text are made from these declarations; nothing else lists a task's options.

A field's default is the task's own default (what it uses when the option is not given); on the
command line every declared option defaults to None, "not given", so that a task refuses only what
was given. Its argparse type is ``RANGES[name].parse`` of its class when the class has one.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass
from typing import Any


def option(default: Any = None, help: str = "", flag: str | None = "", *, together: str = "", audience: str = "",
           **argparse_kwargs: Any) -> Any:
    """A declared option: a dataclass field with its ``help`` and ``flag`` ("": --NAME; None: none, a
    ``--set`` key only). ``together``: options refused together share this word (a test set is --test,
    --src and --tgt); ``audience``: the models that read it, in refusals (default: the task's name).
    ``argparse_kwargs``: type, action, metavar, choices, as for ``add_argument``."""
    meta = {"help": help, "flag": flag, "together": together, "audience": audience, "argparse": argparse_kwargs}
    return dataclasses.field(default=default, metadata={"option": meta})


@dataclass(frozen=True)
class Option:
    """One declared option as the command line sees it."""

    name: str  # the field: its key in a request's ``task_options`` (or, with prefix, the setting's)
    flag: str | None  # None: no flag (a ``--set`` key)
    dest: str  # argparse's
    help: str
    together: str
    audience: str
    argparse: dict[str, Any]

    @property
    def shown(self) -> str:
        """How a refusal names it: its flag, or the ``--set`` key."""
        return self.flag or self.dest


def declared(cls: type | None, prefix: str = "") -> list[Option]:
    """The options a dataclass declares (its fields made with ``option``), in field order; ``prefix``
    puts their dests in a section ("train." for train settings)."""
    if cls is None:
        return []
    ranges = getattr(cls, "RANGES", {})
    found = []
    for f in dataclasses.fields(cls):
        meta = f.metadata.get("option")
        if meta is None:
            continue
        kwargs = dict(meta["argparse"])
        if f.name in ranges and "type" not in kwargs and "action" not in kwargs:
            kwargs["type"] = ranges[f.name].parse
        flag = "--" + f.name.replace("_", "-") if meta["flag"] == "" else meta["flag"]
        found.append(Option(f.name, flag, prefix + f.name, meta["help"], meta["together"] or f.name,
                            meta["audience"], kwargs))
    return found


def filled(cls: type, given: dict[str, Any]) -> Any:
    """An instance of ``cls`` from the options given (None: not given, so the field's default)."""
    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{k: v for k, v in given.items() if v is not None and k in names})


def add_options(parser: argparse.ArgumentParser, readers: list[tuple[str, list[Option]]]) -> None:
    """Adds each option the tasks declare for one command, once, in a group per set of tasks reading it
    ("translation, parsing models"); ``readers``: (task name, its options) in registry order. One task's
    help comes first; the others' differing help follows as "TASK: help". Every default is None."""
    by_dest: dict[str, list[tuple[str, Option]]] = {}
    for name, options in readers:
        for o in options:
            if o.flag is not None:
                by_dest.setdefault(o.dest, []).append((name, o))
    groups: dict[tuple[str, ...], Any] = {}
    for dest, owners in by_dest.items():
        names = tuple(name for name, _ in owners)
        if names not in groups:
            groups[names] = parser.add_argument_group(f"{', '.join(names)} models")
        first = owners[0][1]
        helps = [first.help] + [f"{name}: {o.help}" for name, o in owners[1:] if o.help != first.help]
        groups[names].add_argument(first.flag, dest=dest, help="; ".join(helps), **first.argparse)
