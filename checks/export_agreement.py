"""A trained model against its exports on the whole Bible test split: identical lines and BLEU.

The run is exported three ways (`aiayn export`: a Hugging Face Marian folder, CTranslate2
float32, CTranslate2 int8), and every test verse is translated by aiayn and by each export,
greedy and with beam 4 (α 0.6):
  * aiayn: ``Translator`` (the command line's path);
  * hf: ``MarianMTModel.generate`` from the exported folder, ``MarianTokenizer`` ids, aiayn's
    length limit (source + EOS + 50 tokens) passed as ``max_new_tokens``, sentences of one limit
    batched together; its generation config stops at K finished beams, as aiayn does;
  * ct2 / ct2_int8: ``aiayn translate --engine ctranslate2`` (``CTranslate2Translator``).
Reported per decoding: the number of lines identical to aiayn's, and sacreBLEU BLEU / chrF. First,
teacher-forced on the references: the largest |logit difference| between aiayn and the HF export,
with Marian's LayerNorm ε (1e-5) and with aiayn's (1e-6) put into the loaded HF model.
Beam scores divide by different length penalties (aiayn GNMT's ((5+|Y|)/6)^α, the others |Y|^α),
so some beam-4 lines differ by convention (README, Export).

Run:  python -m checks.export_agreement --model runs/tr-absolute [--lines N]
Writes benchmarks/results/export_agreement.json.
"""

from __future__ import annotations

import argparse
import itertools
import shutil

from benchmarks.common import CACHE, add_common_args, set_threads, write_result


def hf_translate(folder, lines: list[str], beam: int, alpha: float) -> list[str]:
    import torch
    from transformers import MarianMTModel, MarianTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # the config's max_length beside max_new_tokens is by design
    tok, model = MarianTokenizer.from_pretrained(folder), MarianMTModel.from_pretrained(folder).eval()
    ids = [tok(line)["input_ids"] for line in lines]  # pieces + EOS, as aiayn feeds them
    out = [""] * len(lines)
    by_length = sorted(range(len(lines)), key=lambda i: len(ids[i]))
    for n, group in itertools.groupby(by_length, key=lambda i: len(ids[i])):
        group = list(group)
        src = torch.tensor([ids[i] for i in group])
        with torch.no_grad():
            gen = model.generate(input_ids=src, attention_mask=torch.ones_like(src), num_beams=beam,
                                 length_penalty=alpha, max_new_tokens=n + 50, do_sample=False)
        for i, text in zip(group, tok.batch_decode(gen, skip_special_tokens=True)):
            out[i] = text
    return out


def logit_gap(run, folder, src: list[str], ref: list[str]) -> dict[str, float]:
    """Largest |logit difference| of aiayn and its HF export, teacher-forced on the references."""
    import torch
    from transformers import MarianMTModel

    from aiayn.inference.translator import Translator

    ours = Translator.load(run)
    tok, cfg = ours.tokenizer, ours.model.config
    hf = MarianMTModel.from_pretrained(folder).eval()
    gaps = {}
    for name in ("marian_eps_1e-5", "aiayn_eps_1e-6"):
        if name.startswith("aiayn"):
            for m in hf.modules():
                if isinstance(m, torch.nn.LayerNorm):
                    m.eps = cfg.layer_norm_eps
        worst = 0.0
        with torch.no_grad():
            for s, r in zip(src, ref):
                x = torch.tensor([tok.encode([s])[0][: cfg.max_positions - 1] + [cfg.eos_id]])
                y = torch.tensor([[cfg.bos_id] + tok.encode([r])[0][: cfg.max_positions - 1]])
                worst = max(worst, float((ours.model(x, y) - hf(input_ids=x, decoder_input_ids=y).logits).abs().max()))
        gaps[name] = worst
    return gaps


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", required=True, help="a translation run (the tiny sinusoidal Transformer)")
    p.add_argument("--lines", type=int, default=None, help="only the first N test verses (default: all 1,266)")
    add_common_args(p)
    args = p.parse_args()
    threads = set_threads(args.threads)

    from sacrebleu.metrics import BLEU, CHRF

    from aiayn import corpus
    from aiayn.data import read_parallel
    from aiayn.decoding.options import DecodeOptions
    from aiayn.export import export
    from aiayn.export.ctranslate2 import CTranslate2Translator
    from aiayn.inference.translator import Translator

    data = read_parallel(corpus.builtin("test"), "en", "es")
    src, ref = data.src[: args.lines], data.tgt[: args.lines]
    root = CACHE / "export-agreement"
    shutil.rmtree(root, ignore_errors=True)
    folders = {"hf": export(args.model, "hf", root / "hf"), "ct2": export(args.model, "ctranslate2", root / "ct2"),
               "ct2_int8": export(args.model, "ctranslate2", root / "ct2-int8", "int8")}
    gaps = logit_gap(args.model, folders["hf"], src, ref)
    print(f"teacher-forced max |logit difference|, aiayn vs HF: {gaps['marian_eps_1e-5']:.2e} with Marian's epsilon, "
          f"{gaps['aiayn_eps_1e-6']:.2e} with aiayn's")
    aiayn = Translator.load(args.model)
    results = {}
    for beam, alpha in ((1, 0.0), (4, 0.6)):
        opts = DecodeOptions(beam_size=beam, alpha=alpha)
        hyps = {"aiayn": aiayn.translate(src, opts), "hf": hf_translate(folders["hf"], src, beam, alpha)}
        for name in ("ct2", "ct2_int8"):
            hyps[name] = CTranslate2Translator(folders[name], "cpu").translate(src, opts)
        key = "greedy" if beam == 1 else f"beam{beam}_alpha{alpha}"
        results[key] = {name: {"identical_to_aiayn": sum(a == b for a, b in zip(h, hyps["aiayn"])),
                               "bleu": BLEU().corpus_score(h, [ref]).score, "chrf": CHRF().corpus_score(h, [ref]).score}
                        for name, h in hyps.items()}
        for name, r in results[key].items():
            print(f"{key:16} {name:9} identical {r['identical_to_aiayn']:5}/{len(src)}  BLEU {r['bleu']:6.2f}  "
                  f"chrF {r['chrf']:6.2f}")
    write_result("export_agreement", {"model": args.model, "lines": len(src), "threads": threads,
                                      "max_logit_difference_hf": gaps, "results": results},
                 args.results)


if __name__ == "__main__":
    main()
