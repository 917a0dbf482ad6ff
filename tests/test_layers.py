"""The folders are the layers: every import in src/aiayn (function-level ones too) points down.

Read from the source with ``ast``, so an import hidden inside a function counts as much as one at
the top. The order below is the one docs/code-map.md describes.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "aiayn"

# Lowest first. A module may import its own layer and the layers below it, never one above.
LAYERS = [
    {"errors", "checks", "progress", "precision", "allocator", "provenance", "corpus"},  # leaf helpers
    {"model"},
    {"decoding", "data"},
    {"metrics", "io"},
    {"inference"},
    {"plots", "training"},
    {"tasks"},
    {"serve", "export"},
    {"runs"},
    {"experiments"},
    {"app"},
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
FORBIDDEN = {  # pairs the ranks alone would allow, refused by name
    ("decoding", "training"), ("inference", "training"), ("plots", "training"), ("training", "plots"),
    ("serve", "export"), ("export", "serve"),
}


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def root_names(package: Path = PACKAGE) -> dict[str, str]:
    """The names the package root offers (``from aiayn import Transformer``) -> the module each comes
    from: those the root imports, and those its lazy table ``_LAZY`` imports on first use."""
    names = {}
    for node in ast.walk(ast.parse((package / "__init__.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names.update({alias.asname or alias.name: f"aiayn.{node.module}" for alias in node.names})
        elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "_LAZY" for t in node.targets):
            names.update({name: f"aiayn.{module}" for name, module in ast.literal_eval(node.value).items()})
    return names


def resolve(target: str, package: Path = PACKAGE) -> str:
    """``aiayn.NAME`` where NAME is no module of the package -> the module the root takes NAME from
    (unchanged when the root does not offer it: ``violations`` reports it)."""
    parts = target.split(".")
    if len(parts) != 2 or parts[0] != "aiayn" or (package / parts[1]).is_dir() or (package / f"{parts[1]}.py").exists():
        return target
    return root_names(package).get(parts[1], target)


def imports(path: Path, package: Path = PACKAGE) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in ``path``, relative ones resolved; ``from X import
    y`` yields X.y as well, since y may be a module; a name taken from the package root counts as its module."""
    own = module_name(path, package) if path.name == "__init__.py" else module_name(path, package).rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = own.split(".")[: len(own.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return [(line, resolve(target, package)) for line, target in found]


def layer_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "aiayn" and len(parts) > 1 else None


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_top_level_name_has_a_layer():
    """A new folder or module must be placed in LAYERS (and in docs/code-map.md) deliberately."""
    names = {p.stem if p.parent == PACKAGE else p.relative_to(PACKAGE).parts[0] for p in SOURCES}
    assert names - {"__init__", "__main__"} <= set(RANK), sorted(names - set(RANK) - {"__init__", "__main__"})


def violations(path: Path, package: Path = PACKAGE) -> list[str]:
    """The imports of ``path`` that point up, or name what the package does not have."""
    own = layer_of(module_name(path, package))
    if own not in RANK:  # aiayn/__init__.py and __main__.py: the public surface sits above everything
        return []
    wrong = []
    for line, target in imports(path, package):
        other = layer_of(target)
        if other is not None and other not in RANK:
            wrong.append(f"line {line}: {own} imports {target}, which is no module of aiayn nor a name its root offers")
        elif other is not None and other != own and (RANK[other] > RANK[own] or (own, other) in FORBIDDEN):
            wrong.append(f"line {line}: {own} imports {target}")
    return wrong


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down(path):
    wrong = violations(path)
    assert not wrong, wrong


def closure(start: str, package: Path = PACKAGE) -> set[str]:
    """Every module of the package that importing ``start`` can reach (the root's own imports
    included: Python runs aiayn/__init__.py first), and the outside ones it names."""
    by_name = {module_name(p, package): p for p in sorted(package.rglob("*.py"))}
    seen, todo, outside = set(), [start], set()
    while todo:
        name = todo.pop()
        if name in seen or name not in by_name:
            continue
        seen.add(name)
        for _, target in imports(by_name[name], package):
            if target.startswith("aiayn"):
                parts = target.split(".")
                todo += [".".join(parts[:i]) for i in range(1, len(parts) + 1)]  # its packages' __init__ too
            else:
                outside.add(target.split(".")[0])
    return seen | outside


def model_reaches(package: Path = PACKAGE) -> set[str | None]:
    """The layers ``import aiayn.model`` loads."""
    return {layer_of(m) for m in closure("aiayn.model", package) if m.startswith("aiayn")}


def test_the_server_never_reaches_matplotlib():
    """The JSON server computes attention weights as numbers; pictures are the command line's business."""
    reached = closure("aiayn.serve") | closure("aiayn.serve.app") | closure("aiayn.serve.worker")
    assert "matplotlib" not in reached and not any(m.startswith("aiayn.plots") for m in reached)


def test_the_model_stands_alone():
    """The model layer needs only torch and the leaf helpers: it can be lifted into another project."""
    assert model_reaches() <= {"model", "errors", "checks", None}


@pytest.fixture
def tree(tmp_path) -> Path:
    """A copy of the package's sources to break on purpose."""
    copy = tmp_path / "aiayn"
    shutil.copytree(PACKAGE, copy, ignore=lambda folder, names: [
        n for n in names if n == "__pycache__" or not (n.endswith(".py") or (Path(folder) / n).is_dir())])
    return copy


@pytest.mark.parametrize("source, message", [
    ("def f():\n    from ..training.trainer import Trainer\n", "line 2: model imports aiayn.training.trainer"),
    ("from aiayn import build_optimizer\n", "line 1: model imports aiayn.training"),  # through the root
    ("from .. import no_such_name\n", "line 1: model imports aiayn.no_such_name, which is no module"),
])
def test_a_violation_is_caught(tree, source, message):
    """The checker itself: a model module importing the trainer, directly or through the package
    root, or something the package does not have, is reported with its line."""
    probe = tree / "model" / "_layer_probe.py"
    probe.write_text(source, encoding="utf-8")
    assert any(line.startswith(message) for line in violations(probe, tree)), violations(probe, tree)


def test_an_eager_root_is_caught(tree):
    """What aiayn/__init__.py imports is loaded by every ``import aiayn.X``: an eager import of the
    trainer there would tie the model to it."""
    assert model_reaches(tree) <= {"model", "errors", "checks", None}
    (tree / "__init__.py").write_text("from .training import noam_lr\n", encoding="utf-8")
    assert "training" in model_reaches(tree)


def cycles(package: Path = PACKAGE) -> list[set[str]]:
    """Groups of modules that import each other, directly or round a loop (function-level imports count;
    a package's ``__init__`` is left out: it imports its own modules by design)."""
    modules = {module_name(p, package): p for p in sorted(package.rglob("*.py")) if p.name != "__init__.py"}
    graph = {m: {t for _, t in imports(p, package) if t in modules and t != m} for m, p in modules.items()}

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()] - seen:
                seen.add(nxt)
                todo.append(nxt)
        return seen

    reached = {m: reach(m) for m in graph}
    groups = {frozenset({m} | {n for n in reached[m] if m in reached[n]}) for m in graph if m in reached[m]}
    return [set(g) for g in groups]


def test_no_import_cycles():
    assert cycles() == []


def test_a_cycle_is_found(tmp_path):
    package = tmp_path / "aiayn"
    (package / "app").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "app" / "__init__.py").write_text("")
    (package / "app" / "a.py").write_text("def f():\n    from .b import g\n")
    (package / "app" / "b.py").write_text("from .a import f\n")
    (package / "app" / "c.py").write_text("from .a import f\n")
    assert cycles(package) == [{"aiayn.app.a", "aiayn.app.b"}]


def test_benchmarks_read_runs_through_the_library():
    """benchmarks/ measures and checks/ compares; a run folder is read through ``aiayn.io.rundir`` (``RunDir``: ``read_config``,
    ``events``, ``best``, ``last_checkpoint``; ``hypotheses``), never by spelling its files' names.
    (decode_throughput's config.json is the saved Hugging Face model's, not a run's.)"""
    allowed = {("decode_throughput.py", "config.json")}
    run_file = re.compile(r"config\.json|log\.jsonl|(best|state)\.safetensors|step-.*\.safetensors|hyp\..*")
    found = [(p.name, node.value, node.lineno)
             for folder in ("benchmarks", "checks") for p in sorted((PACKAGE.parents[1] / folder).glob("*.py"))
             for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(node, ast.Constant) and isinstance(node.value, str) and run_file.fullmatch(node.value)
             and (p.name, node.value) not in allowed]
    assert not found, found
