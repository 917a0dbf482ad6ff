"""A SYNTHETIC treebank: English-like sentences drawn from a hand-written probabilistic grammar, so the
parsing task (paper §6.3) runs and is tested without the Penn Treebank, which cannot ship here.
Data card: docs/data/synthetic-treebank.md. No figure measured on it compares with the paper's WSJ F1.

The grammar nests prepositional phrases, relative clauses, that-clauses, coordination and modal
verb phrases, so lengths vary (3 to 40 words). Recursive rules lose weight with depth. Some
attachments are ambiguous on purpose: "in", "on" and "with" head PPs under a noun phrase or a verb
phrase, so the same words can have two trees and no parser reaches 100. Trees use Penn Treebank
labels (S, NP, VP, PP, SBAR, WHNP, ADJP, ADVP, PRT) and tags; a relative clause's trace is already
removed, as ``normalise`` would: ``(SBAR (WHNP (WDT that)) (S (VP ...)))``.

Splits are fixed by seeds: train from ``random.Random(1)``, valid from 2, test from 3; a valid or
test sentence whose words are a training sentence's (or an earlier one's of its own split) is
skipped, so every held-out sentence is unseen.
"""

from __future__ import annotations

import random
from pathlib import Path

from .treebank import Tree

SIZES = {"train": 4000, "valid": 400, "test": 400}  # sentences per split
SEEDS = {"train": 1, "valid": 2, "test": 3}
MAX_WORDS = 40  # longer draws are thrown away and drawn again
DECAY = 0.75  # a recursive rule's weight is multiplied by this per level of depth

LEXICON = {
    "DT": "the a every this some".split(),
    "NN": "dog cat man woman child teacher farmer house garden river book letter city car telescope table "
          "window song idea story friend bird tree road".split(),
    "NNS": "dogs children books letters birds friends trees songs".split(),
    "NNP": "John Mary Alice Paris London".split(),
    "PRP": "she he they it".split(),  # a subject
    "PRP_O": "her him them it".split(),  # an object
    "JJ": "big small old young red happy quiet strange green tall".split(),
    "RB": "very quite".split(),  # degree, in an adjective phrase
    "RB_V": "slowly quickly often again early".split(),  # manner, after a verb
    "VBD_T": "saw liked found took read wrote built visited chased heard".split(),  # transitive
    "VBD_I": "slept laughed arrived left waited smiled".split(),  # intransitive
    "VBD_S": "said thought knew believed".split(),  # with a that-clause
    "VBD_P": "picked gave looked turned".split(),  # with a particle
    "VBD_A": "seemed became looked".split(),  # with an adjective phrase
    "VB": "see like find take read visit".split(),  # after a modal
    "MD": "will could might should".split(),
    "RP": "up out off down".split(),
    "IN_N": "of near under behind from in on with".split(),  # heads a PP inside a noun phrase
    "IN_V": "with to at into after in on".split(),  # heads a PP inside a verb phrase
    "WDT": "that which".split(),
    "CC": "and but or".split(),
}


class Grammar:
    """Draws trees from the grammar with one seeded random stream (the same seed, the same trees)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def word(self, kind: str) -> Tree:
        tag = kind.split("_")[0]  # VBD_T -> VBD: the sub-kinds only choose the verb's frame
        return Tree(tag, [self.rng.choice(LEXICON[kind])])

    def choose(self, options: list[tuple[float, bool, object]], depth: int):
        """One expansion: (weight, recursive, rule) each; recursive weights shrink with depth."""
        weights = [w * (DECAY**depth if recursive else 1.0) for w, recursive, _ in options]
        x = self.rng.random() * sum(weights)
        for weight, (_, _, rule) in zip(weights, options):
            x -= weight
            if x < 0:
                return rule
        return options[-1][2]

    def sentence(self) -> Tree:
        """A top-level S ending in a full stop."""
        s = self.clause(0)
        return Tree("S", s.children + [Tree(".", ["."])])

    def clause(self, depth: int) -> Tree:
        rule = self.choose([(0.85, False, "plain"), (0.08, False, "fronted"), (0.07, True, "coordinated")], depth)
        if rule == "coordinated":
            return Tree("S", [self.clause(depth + 1), Tree(",", [","]), self.word("CC"), self.clause(depth + 1)])
        subject_verb = [self.noun_phrase(depth + 1, subject=True), self.verb_phrase(depth + 1)]
        if rule == "fronted":
            return Tree("S", [Tree("ADVP", [Tree("RB", ["yesterday"])]), Tree(",", [","]), *subject_verb])
        return Tree("S", subject_verb)

    def noun_phrase(self, depth: int, subject: bool = False) -> Tree:
        rule = self.choose([(0.45, False, "base"), (0.12 if subject else 0.06, False, "pronoun"),
                            (0.25, True, "pp"), (0.14, True, "relative"), (0.05, True, "coordinated")], depth)
        if rule == "pronoun":
            return Tree("NP", [self.word("PRP" if subject else "PRP_O")])
        if rule == "base":
            return self.base_noun_phrase()
        if rule == "pp":
            return Tree("NP", [self.base_noun_phrase(), self.prep_phrase("IN_N", depth + 1)])
        if rule == "relative":
            clause = Tree("S", [self.verb_phrase(depth + 1)])
            return Tree("NP", [self.base_noun_phrase(), Tree("SBAR", [Tree("WHNP", [self.word("WDT")]), clause])])
        return Tree("NP", [self.base_noun_phrase(), self.word("CC"), self.base_noun_phrase()])

    def base_noun_phrase(self) -> Tree:
        rule = self.choose([(0.45, False, ["DT", "NN"]), (0.15, False, ["DT", "JJ", "NN"]),
                            (0.04, False, ["DT", "JJ", "JJ", "NN"]), (0.1, False, ["NNP"]),
                            (0.08, False, ["NNS"]), (0.08, False, ["DT", "NNS"]), (0.05, False, ["JJ", "NNS"])], 0)
        return Tree("NP", [self.word(kind) for kind in rule])

    def prep_phrase(self, preposition: str, depth: int) -> Tree:
        return Tree("PP", [self.word(preposition), self.noun_phrase(depth + 1)])

    def verb_phrase(self, depth: int) -> Tree:
        rule = self.choose([(0.3, False, "transitive"), (0.12, False, "intransitive"), (0.14, True, "transitive-pp"),
                            (0.06, True, "intransitive-pp"), (0.1, True, "that"), (0.08, True, "modal"),
                            (0.07, False, "particle"), (0.06, False, "adjective"), (0.06, False, "adverb"),
                            (0.04, True, "coordinated")], depth)
        d = depth + 1
        if rule == "transitive":
            return Tree("VP", [self.word("VBD_T"), self.noun_phrase(d)])
        if rule == "intransitive":
            return Tree("VP", [self.word("VBD_I")])
        if rule == "transitive-pp":
            return Tree("VP", [self.word("VBD_T"), self.noun_phrase(d), self.prep_phrase("IN_V", d)])
        if rule == "intransitive-pp":
            return Tree("VP", [self.word("VBD_I"), self.prep_phrase("IN_V", d)])
        if rule == "that":
            return Tree("VP", [self.word("VBD_S"), Tree("SBAR", [Tree("IN", ["that"]), self.clause(d)])])
        if rule == "modal":
            return Tree("VP", [self.word("MD"), Tree("VP", [self.word("VB"), self.noun_phrase(d)])])
        if rule == "particle":
            return Tree("VP", [self.word("VBD_P"), Tree("PRT", [self.word("RP")]), self.noun_phrase(d)])
        if rule == "adjective":
            adjective = [self.word("RB"), self.word("JJ")] if self.rng.random() < 0.4 else [self.word("JJ")]
            return Tree("VP", [self.word("VBD_A"), Tree("ADJP", adjective)])
        if rule == "adverb":
            return Tree("VP", [self.word("VBD_I"), Tree("ADVP", [self.word("RB_V")])])
        return Tree("VP", [self.verb_phrase(d), self.word("CC"), self.verb_phrase(d)])


def generate(n: int, seed: int, exclude: set[tuple[str, ...]] | None = None) -> list[Tree]:
    """``n`` trees of at most MAX_WORDS words, none with the words of another or of one in ``exclude``."""
    grammar, seen, trees = Grammar(seed), set(exclude or ()), []
    while len(trees) < n:
        tree = grammar.sentence()
        words = tuple(tree.words())
        if len(words) <= MAX_WORDS and words not in seen:
            seen.add(words)
            trees.append(tree)
    return trees


_SPLITS: dict[str, list[Tree]] = {}


def synthetic_split(split: str) -> list[Tree]:
    """The trees of one split of the synthetic treebank (drawn once per process)."""
    if split not in SIZES:
        raise ValueError(f"unknown split {split!r}; the synthetic treebank has {', '.join(SIZES)}")
    if not _SPLITS:
        train = generate(SIZES["train"], SEEDS["train"])
        seen = {tuple(t.words()) for t in train}
        _SPLITS["train"] = train
        for name in ("valid", "test"):
            _SPLITS[name] = generate(SIZES[name], SEEDS[name], seen)
            seen |= {tuple(t.words()) for t in _SPLITS[name]}
    return _SPLITS[split]


def write_splits(folder: str | Path) -> list[Path]:
    """Writes synthetic-treebank.{train,valid,test}.mrg into ``folder``, one tree per line."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for split in SIZES:
        path = folder / f"synthetic-treebank.{split}.mrg"
        path.write_text("".join(f"{tree}\n" for tree in synthetic_split(split)), encoding="utf-8")
        paths.append(path)
    return paths
