"""The folders are the layers: every import in src/aiayn (function-level ones too) points down.

Read from the source with ``ast``, so an import hidden inside a function counts as much as one at
the top. The order below is the one docs/code-map.md describes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "aiayn"

# Lowest first. A module may import its own layer and the layers below it, never one above.
LAYERS = [
    {"errors", "checks", "progress", "precision", "corpus"},  # leaf helpers
    {"model"},
    {"decoding", "data"},
    {"metrics", "io"},
    {"inference"},
    {"plots", "training"},
    {"tasks"},
    {"serve", "export"},
    {"app"},
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
FORBIDDEN = {  # pairs the ranks alone would allow, refused by name
    ("decoding", "training"), ("inference", "training"), ("plots", "training"), ("training", "plots"),
    ("serve", "export"), ("export", "serve"),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in ``path``, relative ones resolved; ``from X import
    y`` yields X.y as well, since y may be a module."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "aiayn" and len(parts) > 1 else None


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_top_level_name_has_a_layer():
    """A new folder or module must be placed in LAYERS (and in docs/code-map.md) deliberately."""
    names = {p.stem if p.parent == PACKAGE else p.relative_to(PACKAGE).parts[0] for p in SOURCES}
    assert names - {"__init__", "__main__"} <= set(RANK), sorted(names - set(RANK) - {"__init__", "__main__"})


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    own = layer_of(module_name(path))
    if own not in RANK:  # aiayn/__init__.py and __main__.py: the public surface sits above everything
        return
    wrong = []
    for line, target in imports(path):
        other = layer_of(target)
        if other is None or other not in RANK or other == own:
            continue
        if RANK[other] > RANK[own] or (own, other) in FORBIDDEN:
            wrong.append(f"line {line}: {own} imports {target}")
    assert not wrong, wrong


def closure(start: str) -> set[str]:
    """Every module of the package that importing ``start`` can reach, and the outside ones it names."""
    by_name = {module_name(p): p for p in SOURCES}
    seen, todo, outside = set(), [start], set()
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        for _, target in imports(by_name[name]):
            if target.startswith("aiayn"):
                parts = target.split(".")
                todo += [".".join(parts[:i]) for i in range(2, len(parts) + 1)]  # its packages' __init__ too
            else:
                outside.add(target.split(".")[0])
    return seen | outside


def test_the_server_never_reaches_matplotlib():
    """The JSON server computes attention weights as numbers; pictures are the command line's business."""
    reached = closure("aiayn.serve") | closure("aiayn.serve.app") | closure("aiayn.serve.worker")
    assert "matplotlib" not in reached and not any(m.startswith("aiayn.plots") for m in reached)


def test_the_model_stands_alone():
    """The model layer needs only torch and the leaf helpers: it can be lifted into another project."""
    reached = closure("aiayn.model")
    assert {layer_of(m) for m in reached if m.startswith("aiayn.")} <= {"model", "errors", "checks", None}


def test_a_violation_is_caught(tmp_path, monkeypatch):
    """The checker itself: a model module importing the trainer is reported with its line."""
    fake = PACKAGE / "model" / "_layer_probe.py"
    fake.write_text("def f():\n    from ..training.trainer import Trainer\n", encoding="utf-8")
    try:
        with pytest.raises(AssertionError, match="line 2: model imports aiayn.training.trainer"):
            test_imports_point_down(fake)
    finally:
        fake.unlink()
