"""Labelled bracket precision, recall and F1 of parses: EVALB's scoring (Sekine & Collins 1997) with the
parameters of its COLLINS.prm, the convention behind the paper's WSJ F1 (§6.3, Table 4).

What is followed, from EVALB's README and COLLINS.prm:
  * LABELED 1: a test bracket is correct when a gold bracket has its label and its span;
  * DELETE_LABEL TOP, -NONE- and the punctuation tags , : `` '' . (``DELETE_LABELS``): such
    constituents are not scored; a deleted POS tag takes its word along (punctuation and traces do
    not count for spans), and constituents left with no word are removed;
  * EQ_LABEL ADVP PRT: the two labels are one;
  * function tags and indices are cut from labels (NP-SBJ-1 -> NP, NP=2 -> NP);
  * POS tags (preterminals) are not brackets; the constituent over the whole sentence is one;
  * brackets are a multiset: n gold and m test copies of one bracket match min(n, m) times;
  * a sentence whose two trees have different words is skipped and counted, as EVALB's
    "length/word unmatch" errors; complete match = every bracket matched both ways.
Departures: which words are punctuation is read from the gold tree's tags alone (the predicted
tags may differ: EVALB 2006's fix reaches the same); no CUTOFF_LEN summary (all lengths); no
crossing brackets or tagging accuracy (the parser predicts no tags).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields

from ..data.treebank import TRACE, Tree, function_tag_free

DELETE_LABELS = frozenset({"TOP", "-NONE-", ",", ":", "``", "''", "."})  # COLLINS.prm DELETE_LABEL
EQUIVALENT = {"PRT": "ADVP"}  # COLLINS.prm EQ_LABEL ADVP PRT

Bracket = tuple[str, int, int]  # label, first word, one past the last word (deleted words not counted)


@dataclass
class BracketScores:
    """Corpus counts; precision, recall and F1 in percent (0 where nothing was counted)."""

    matched: int = 0
    gold: int = 0  # brackets in the gold trees
    test: int = 0  # brackets in the parsed trees
    sentences: int = 0  # scored (not skipped)
    exact: int = 0  # complete matches
    skipped: int = 0  # the two trees' words differ

    def __add__(self, other: BracketScores) -> BracketScores:
        return BracketScores(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    @property
    def precision(self) -> float:
        return 100.0 * self.matched / self.test if self.test else 0.0

    @property
    def recall(self) -> float:
        return 100.0 * self.matched / self.gold if self.gold else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def exact_match(self) -> float:
        return 100.0 * self.exact / self.sentences if self.sentences else 0.0


def scored_label(label: str) -> str:
    """The label EVALB compares: function tags cut, PRT read as ADVP."""
    label = function_tag_free(label)
    return EQUIVALENT.get(label, label)


def brackets(tree: Tree, deleted: set[int]) -> Counter[Bracket]:
    """The scored brackets of ``tree``; ``deleted``: positions (0-based, traces not counted) of words
    that do not count for spans."""
    found: Counter[Bracket] = Counter()
    position = kept = 0  # words seen, and of those the ones that count
    stack: list[Tree | tuple[Tree, int]] = [tree]
    while stack:  # not recursive: a predicted tree may nest hundreds deep
        item = stack.pop()
        if isinstance(item, tuple):  # all of the node's words are seen: its span is known
            node, start = item
            label = scored_label(node.label)
            if kept > start and label not in DELETE_LABELS:
                found[(label, start, kept)] += 1
        elif item.is_preterminal:
            if item.label != TRACE:  # a trace is no word, in either tree
                kept += position not in deleted
                position += 1
        else:
            stack.append((item, kept))
            stack.extend(reversed(item.children))
    return found


def words(tree: Tree) -> list[str]:
    """The words EVALB compares: traces are none."""
    return [p.children[0] for p in tree.preterminals() if p.label != TRACE]


def punctuation(gold: Tree) -> set[int]:
    """Positions (traces not counted) of the words whose gold POS tag COLLINS.prm deletes."""
    tags = [tag for tag in gold.tags() if tag != TRACE]
    return {i for i, tag in enumerate(tags) if scored_label(tag) in DELETE_LABELS}


def score_tree(gold: Tree, test: Tree) -> BracketScores:
    """One sentence's counts (skipped if the two trees' words differ)."""
    if words(gold) != words(test):
        return BracketScores(skipped=1)
    deleted = punctuation(gold)
    gold_b, test_b = brackets(gold, deleted), brackets(test, deleted)
    matched = sum((gold_b & test_b).values())
    n_gold, n_test = sum(gold_b.values()), sum(test_b.values())
    return BracketScores(matched, n_gold, n_test, 1, int(matched == n_gold == n_test))


def score_corpus(golds: list[Tree], tests: list[Tree]) -> BracketScores:
    """EVALB's corpus figures: counts summed over sentences, then precision, recall and F1."""
    if len(golds) != len(tests):
        raise ValueError(f"{len(golds)} gold trees but {len(tests)} parsed trees")
    total = BracketScores()
    for gold, test in zip(golds, tests):
        total = total + score_tree(gold, test)
    return total
