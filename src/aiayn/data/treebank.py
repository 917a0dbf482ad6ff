"""Constituency trees for parsing as translation (paper §6.3): Penn Treebank brackets in and out,
the linearised tree the decoder emits, and the word / tree-symbol vocabularies.

A tree is ``Tree(label, children)``; a preterminal (a POS tag over its word) has one ``str`` child.
Trees are read in the Penn Treebank's bracket format, one or several lines per tree, the ``.mrg``
files' outer unlabelled bracket included: ``( (S (NP (DT the) (NN dog)) (VP (VBD slept)) (. .)) )``.

The target sequence is Vinyals et al.'s (2015, "Grammar as a foreign language") linearisation, with
every POS tag normalised to ``XX`` and labelled closing brackets, one token each::

    (S (NP XX XX )NP (VP XX )VP XX )S

``delinearise`` turns a predicted sequence back into a tree over the input words, repairing what is
not well-formed (and counting the repairs): see its docstring.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .errors import DataError
from .parallel import read_text_lines

XX = "XX"  # Vinyals et al.: every POS tag is the same symbol in the target
ROOT_LABELS = ("", "TOP", "ROOT")  # a root wrapper, not a constituent (EVALB deletes TOP)
TRACE = "-NONE-"  # empty elements (traces) of the Penn Treebank, not words
MAX_DEPTH = 200  # brackets nested deeper than this are refused (they would overflow recursion later)
_TOKEN = re.compile(r"\(|\)|[^\s()]+")


@dataclass
class Tree:
    """A constituent: its label and children, each a ``Tree`` or (only under a POS tag) the word."""

    label: str
    children: list[Tree | str]
    line: int = field(default=0, compare=False)  # where it began in its file (1-based; 0: not read)

    @property
    def is_preterminal(self) -> bool:
        return len(self.children) == 1 and isinstance(self.children[0], str)

    def preterminals(self) -> list[Tree]:
        """The POS-tag nodes, left to right."""
        out, stack = [], [self]
        while stack:
            node = stack.pop()
            if node.is_preterminal:
                out.append(node)
            else:
                stack.extend(reversed(node.children))
        return out

    def words(self) -> list[str]:
        return [p.children[0] for p in self.preterminals()]

    def tags(self) -> list[str]:
        return [p.label for p in self.preterminals()]

    def __str__(self) -> str:
        """One line of Penn Treebank brackets: ``(S (NP (DT the) (NN dog)) (VP (VBD slept)))``."""
        parts: list[str] = []
        stack: list[Tree | str] = [self]
        while stack:  # not recursive: a predicted tree may nest hundreds deep
            node = stack.pop()
            if isinstance(node, str):
                parts.append(node)
            elif node.is_preterminal:
                parts.append(f" ({node.label} {node.children[0]})")
            else:
                parts.append(f" ({node.label}")
                stack.append(")")
                stack.extend(reversed(node.children))
        return "".join(parts)[1:]


def read_trees(path: str | Path) -> list[Tree]:
    """The trees of a Penn Treebank file; a malformed one is a DataError naming the file and line."""
    return parse_trees(read_text_lines(path), str(path))


def parse_trees(lines: Iterable[str], name: str) -> list[Tree]:
    """The trees in ``lines`` (brackets may span lines); ``name`` is the file errors name."""
    trees: list[Tree] = []
    stack: list[Tree] = []  # open brackets; a label of None: not read yet
    for number, line in enumerate(lines, start=1):
        for token in _TOKEN.findall(line):
            where = f"{name}: line {number}"
            if stack and stack[-1].label is None:
                stack[-1].label = "" if token in "()" else token
                if token not in "()":
                    continue
            if token == "(":
                if len(stack) >= MAX_DEPTH:
                    raise DataError(f"{where}: brackets nested deeper than {MAX_DEPTH}; is a ')' missing?")
                stack.append(Tree(None, [], line=number))
            elif token == ")":
                if not stack:
                    raise DataError(f"{where}: unbalanced brackets: this ')' closes nothing")
                node = stack.pop()
                _check_node(node, stack, where)
                (stack[-1].children if stack else trees).append(node)
            elif not stack:
                raise DataError(f"{where}: {token!r} is outside any brackets; a tree starts with '('")
            else:
                stack[-1].children.append(token)
    if stack:
        raise DataError(f"{name}: line {stack[0].line}: unbalanced brackets: the '(' opened here is never closed")
    if not trees:
        raise DataError(f"{name}: no trees (the input is empty); expected Penn Treebank brackets like "
                        "(S (NP (DT the) (NN dog)) (VP (VBD slept)))")
    return trees


def _check_node(node: Tree, parents: list[Tree], where: str) -> None:
    """A closed bracket must have a label (but a root wrapper) and either one word or only subtrees."""
    if not node.children:
        raise DataError(f"{where}: empty brackets ({node.label or ''}): a constituent needs a word or subtrees")
    if node.label == "" and parents:
        raise DataError(f"{where}: brackets without a label inside a tree (only the root may have none)")
    words = [c for c in node.children if isinstance(c, str)]
    if words and len(node.children) > 1:
        raise DataError(f"{where}: ({node.label} ...) mixes words and brackets, or holds several words; "
                        "a word stands alone under its POS tag, like (NN dog)")


def function_tag_free(label: str) -> str:
    """EVALB's label: function tags and indices cut off (NP-SBJ-1 -> NP, NP=2 -> NP); -NONE- kept."""
    if label.startswith("-"):
        return label
    return re.split(r"[-=]", label, maxsplit=1)[0] or label


def normalise(tree: Tree, name: str = "") -> Tree:
    """The tree as parsers learn it: traces (-NONE-) and the constituents left empty removed, function
    tags cut off, the root wrapper dropped. A root wrapper over several constituents, or over one
    word, stays as ``TOP`` (which EVALB does not score). A tree of traces only is a DataError."""
    kept = _without_traces(tree)
    if kept is None:
        raise DataError(f"{name}: line {tree.line}: the tree has no words (only traces)")
    if kept.label in ROOT_LABELS:
        only = kept.children[0] if len(kept.children) == 1 else None
        kept = only if isinstance(only, Tree) and not only.is_preterminal else Tree("TOP", kept.children, kept.line)
    return kept


def _without_traces(node: Tree) -> Tree | None:
    if node.is_preterminal:
        return None if node.label == TRACE else Tree(node.label, list(node.children), node.line)
    children = [c for c in (_without_traces(child) for child in node.children) if c is not None]
    return Tree(function_tag_free(node.label), children, node.line) if children else None


def linearise(tree: Tree) -> list[str]:
    """Vinyals et al.'s target: ``(L`` ... ``)L`` per constituent, ``XX`` per word (POS tags normalised)."""
    out: list[str] = []
    stack: list[Tree | str] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, str):  # a closing bracket, pushed before the children
            out.append(node)
        elif node.is_preterminal:
            out.append(XX)
        else:
            out.append(f"({node.label}")
            stack.append(f"){node.label}")
            stack.extend(reversed(node.children))
    return out


def delinearise(symbols: list[str], words: list[str], tags: list[str] | None = None) -> tuple[Tree, int]:
    """The tree a predicted sequence describes over ``words`` (POS tags from ``tags``, else ``XX``),
    and how many repairs it needed (0: the sequence was a well-formed tree over exactly these words).

    Repairs, one count each: a closing bracket that closes nothing is dropped; one naming another
    label than the bracket it closes is taken as closing it (the opening label stays); a constituent
    with no words is dropped; an ``XX`` beyond the last word is dropped; any other symbol (unknown,
    a word) is dropped; brackets still open at the end are closed; words no ``XX`` took are attached,
    as preterminals, to the end of the top constituent; several top constituents (or words outside
    any) are gathered under ``TOP``.
    """
    tags = tags or [XX] * len(words)
    top = Tree("TOP", [])
    stack, repairs, used = [top], 0, 0
    for symbol in symbols:
        if symbol == XX:
            if used == len(words):
                repairs += 1
                continue
            stack[-1].children.append(Tree(tags[used], [words[used]]))
            used += 1
        elif len(symbol) > 1 and symbol[0] == "(":
            stack.append(Tree(symbol[1:], []))
        elif len(symbol) > 1 and symbol[0] == ")" and len(stack) > 1:
            repairs += (symbol[1:] != stack[-1].label) + _close(stack)
        else:  # a stray closer or a symbol that is no tree symbol
            repairs += 1
    while len(stack) > 1:
        repairs += 1 + _close(stack)
    if used < len(words):
        repairs += 1
        only = top.children[0] if len(top.children) == 1 and not top.children[0].is_preterminal else top
        only.children.extend(Tree(tags[i], [words[i]]) for i in range(used, len(words)))
    if len(top.children) == 1 and not top.children[0].is_preterminal:
        return top.children[0], repairs
    return top, repairs + 1


def _close(stack: list[Tree]) -> int:
    """Closes the innermost open constituent; 1 if it was empty (and so dropped), else 0."""
    node = stack.pop()
    if not node.children:
        return 1
    stack[-1].children.append(node)
    return 0


SPECIALS = ("<pad>", "<s>", "</s>", "<unk>")
PAD, BOS, EOS, UNK = range(len(SPECIALS))


class Vocab:
    """Tokens by id, the special ones first (``SPECIALS``: pad 0, BOS 1, EOS 2, unknown 3)."""

    def __init__(self, tokens: Iterable[str]):
        self.tokens = list(SPECIALS) + [t for t in tokens if t not in SPECIALS]
        self.index = {t: i for i, t in enumerate(self.tokens)}

    @classmethod
    def build(cls, sequences: Iterable[list[str]], min_count: int = 1) -> Vocab:
        """Tokens seen at least ``min_count`` times, most frequent first (ties in code-point order)."""
        counts = Counter(t for seq in sequences for t in seq)
        return cls(sorted((t for t, n in counts.items() if n >= min_count), key=lambda t: (-counts[t], t)))

    def __len__(self) -> int:
        return len(self.tokens)

    def encode(self, tokens: list[str]) -> list[int]:
        return [self.index.get(t, UNK) for t in tokens]

    def decode(self, ids: list[int]) -> list[str]:
        return [self.tokens[i] for i in ids]

    def __str__(self) -> str:
        """Space-separated tokens past the specials (how a run's config.json records it)."""
        return " ".join(self.tokens[len(SPECIALS):])

    @classmethod
    def from_str(cls, text: str) -> Vocab:
        return cls(text.split())
