"""``aiayn preprocess``: binarize parallel text once into a folder that ``aiayn train --train`` accepts
(the folder's layout: ``aiayn.tasks.translation_data``)."""

from __future__ import annotations

import argparse
import json

from ..tasks.translation_data import FOLDER_META, preprocess


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "preprocess", help="binarize translation data once into a folder that aiayn train --train accepts",
        description="Tokenize parallel text with a given (--vocab) or learned joint BPE vocabulary into token-id "
                    "files that every training process memory-maps: for corpora of millions of pairs shared by "
                    "runs and machines. (aiayn train on text does the same on first use, into a cache.)",
        epilog="example:\n  aiayn preprocess --train wmt14/train --valid wmt14/dev --src en --tgt de "
               "--vocab-size 37000 --out data/wmt14-ende\n  aiayn train --train data/wmt14-ende --preset base",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", metavar="DATA", required=True,
                   help="training pairs: a .tsv/.tsv.gz with a header naming the languages, or PREFIX of PREFIX.SRC "
                        "and PREFIX.TGT (gzip allowed)")
    p.add_argument("--valid", metavar="DATA", help="validation pairs, in the same forms")
    p.add_argument("--src", help="source language (a TSV column, or the PREFIX.SRC suffix)")
    p.add_argument("--tgt", help="target language")
    p.add_argument("--vocab", metavar="SPM_MODEL", help="use this sentencepiece model instead of learning one")
    p.add_argument("--vocab-size", type=int, default=8000, help="size of the joint BPE vocabulary to learn "
                   "(default 8000)")
    p.add_argument("--seed", type=int, default=1, help="seed of the vocabulary's sample above 2M lines (default 1)")
    p.add_argument("--out", metavar="FOLDER", required=True, help="the folder to write (created; must not hold files)")
    return p


def run(args: argparse.Namespace) -> None:
    from tqdm import tqdm

    folder = preprocess(args.train, args.valid, args.src, args.tgt, args.out, args.vocab, args.vocab_size, args.seed,
                        progress=tqdm)
    meta = json.loads((folder / FOLDER_META).read_text(encoding="utf-8"))
    print(f"wrote {folder}: {meta['pairs']:,} training pairs, {meta['ids']:,} token ids; "
          f"train with: aiayn train --train {folder}")
