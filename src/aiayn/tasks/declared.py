"""Options a task declares: the fields of a dataclass, one per command it has options for, each field
carrying its flag and help (``option``). The command line's arguments, ``check_options``' refusals and
the help text are made from these declarations; nothing else lists a task's options.

A field's default is the task's own default (what it uses when the option is not given); on the
command line every declared option of a shared command defaults to None, "not given", so that a task
refuses only what was given. Its argparse type is ``RANGES[name].parse`` of its class when the class has
one. A sub-command a task brings (``Task.commands``: grade, parse) is declared whole by ``Command``: its
words and a dataclass of its options, which keep their defaults on the command line (no other task reads
them). A help text's "{default}" is the field's default.
"""

from __future__ import annotations

import argparse
import dataclasses
from dataclasses import dataclass
from typing import Any

from ..decoding.options import DecodeOptions
from .options import add_decoding, shown


def option(default: Any = None, help: str = "", flag: str | None = "", *, together: str = "", audience: str = "",
           group: str = "", **argparse_kwargs: Any) -> Any:
    """A declared option: a dataclass field with its ``help`` and ``flag`` ("": --NAME; None: none, a
    ``--set`` key only; a word without dashes: a positional argument of that name). ``together``: options
    refused together share this word (a test set is --test, --src and --tgt); ``audience``: the models that
    read it, in refusals (default: the task's name); ``group``: the help's section, in a ``Command``.
    ``argparse_kwargs``: type, action, metavar, choices, nargs, required, as for ``add_argument``."""
    meta = {"help": help, "flag": flag, "together": together, "audience": audience, "group": group,
            "argparse": argparse_kwargs}
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
    default: Any = None  # the task's (the field's)
    group: str = ""

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
                            meta["audience"], kwargs, f.default, meta["group"]))
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
        groups[names].add_argument(first.flag, dest=dest, help="; ".join(helps), default=None, **first.argparse)


@dataclass(frozen=True)
class Command:
    """A sub-command a task brings, declared: its words in ``aiayn --help`` (``help``) and in its own
    (``description``, ``epilog``: the examples), and ``options``, a dataclass whose fields (made with
    ``option``) are its arguments, in field order, each with its default. ``decoding``: the decoding
    options' defaults, for a command that searches (parsing's §6.3), under ``decoding_title``.
    ``Task.commands`` holds ``(COMMAND.add, run)``."""

    name: str
    help: str
    description: str
    epilog: str
    options: type
    decoding: DecodeOptions | None = None
    decoding_title: str = "decoding"

    def add(self, sub) -> argparse.ArgumentParser:
        """The command's parser, made from its declarations, added to argparse's sub-parsers."""
        parser = sub.add_parser(self.name, help=self.help, description=self.description, epilog=self.epilog,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
        groups: dict[str, Any] = {}
        for o in declared(self.options):
            if o.group and o.group not in groups:
                groups[o.group] = parser.add_argument_group(o.group)
            into = groups[o.group] if o.group else parser
            default = list(o.default) if isinstance(o.default, tuple) else o.default  # argparse's nargs give lists
            text = o.help.format(default=shown(o.default))
            if o.flag.startswith("-"):
                into.add_argument(o.flag, dest=o.dest, default=default, help=text, **o.argparse)
            else:  # a positional argument
                into.add_argument(o.dest, default=default, help=text, **o.argparse)
        if self.decoding is not None:
            add_decoding(parser, self.decoding, title=self.decoding_title)
        return parser
