"""Item 3, decoding throughput: generated tokens/s, greedy and beam 4, with every output forced to
exactly 50 tokens so that all systems do the same work, aiayn against:

  hf           Hugging Face MarianMTModel.generate (num_beams, min_new_tokens = max_new_tokens = 50)
  ct2_float32  CTranslate2 Translator, compute_type float32 (min = max_decoding_length = 50)
  ct2_int8     CTranslate2 Translator, compute_type int8 (weights quantized when loaded)
  aiayn_int8   aiayn with int8 linear layers (`aiayn translate --dtype int8`: dynamic quantisation)
  aiayn_bf16   aiayn with weights and cache in bfloat16 (`aiayn translate --dtype bfloat16`); only
               with --systems, and then the run also counts the outputs that differ from float32
  aiayn_compiled, aiayn_bf16_compiled, aiayn_int8_compiled
               aiayn float32 / bfloat16 / int8 with its decoding step compiled (`aiayn translate --compile`,
               ``aiayn.model.compiled``; int8: its int8 weights, bf16 activations); only with --systems; the
               compiling happens in the warm-up calls

Input: 64 source sentences of 25 tokens each (24 random ids + EOS), the same ids for every system,
in one batch, or in batches of --batch sentences (--batch 1: one sentence at a time, as a server
answers a lone client). hf, ct2_float32 and ct2_int8 run the SAME random Marian weights (saved once with
save_pretrained, converted with CTranslate2's Python converter, TransformersConverter); aiayn's
weights are its own random ones (equal work, not equal output).

How the length is forced, per system (50 decoder steps per sentence and beam everywhere):
  * aiayn: greedy_search / beam_search with max_len_a = 0, max_len_b = 50 (the length limit
    counts the EOS: the 50th step must emit EOS) and min_len = 49 (no EOS before 49 tokens).
    So aiayn emits 49 tokens + EOS, the others 50 tokens: 50 decoder steps each.
  * hf: min_new_tokens = max_new_tokens = 50 (EOS suppressed until then), forced_eos off.
  * ct2: min_decoding_length = max_decoding_length = 50.
Every output's length is checked on the first call. Tokens/s counts 64 x 50 per call.

Timing: the systems interleave A B C D after --warmup untimed calls; each call decodes all 64
sentences. Reported: median generated tokens/s and the median paired ratio aiayn/peer (> 1: aiayn
faster). Peak RSS: each system alone in a subprocess (--system NAME) unless --no-memory; the
CTranslate2 children never import torch.

Run:  python -m benchmarks.decode_throughput --size tiny [--beams 1 4] [--repeats 5] [--warmup 1]
          [--systems aiayn hf ct2_float32 ct2_int8 aiayn_int8 aiayn_bf16] [--batch 64]
Writes benchmarks/results/decode_<size>.json (decode_<size>_bf16.json with aiayn_bf16; _batch<N> added
for --batch N below 64), or into --results DIR. Generated models are kept in
benchmarks/.cache/decode-<size>/ (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from .common import CACHE, add_common_args, own_peak_rss_mib, peak_rss_of, print_table, write_result

SYSTEMS = ("aiayn", "hf", "ct2_float32", "ct2_int8", "aiayn_int8", "aiayn_bf16", "aiayn_compiled", "aiayn_bf16_compiled",
           "aiayn_int8_compiled")
LOWER = ("aiayn_bf16", "aiayn_int8", "aiayn_compiled", "aiayn_bf16_compiled", "aiayn_int8_compiled")  # against float32
DEFAULT_SYSTEMS = SYSTEMS[:5]  # aiayn_bf16 on request: it only means something on hardware with bf16
N_SENTENCES, SRC_LEN, OUT_LEN = 64, 25, 50


def cache_dir(size: str):
    return CACHE / f"decode-{size}"


# Preparation (parent only): the random HF model, its CTranslate2 conversion, the sources ------------------
def prepare(size: str, seed: int = 0) -> None:
    """Writes hf/ (save_pretrained), ct2/ (float32 conversion) and sources.json, unless present."""
    import torch

    from .peers import build_marian, marian_vocabulary, model_config

    root, cfg = cache_dir(size), model_config(size)
    if not (root / "sources.json").is_file():
        g = torch.Generator().manual_seed(seed)
        ids = torch.randint(4, cfg.src_vocab_size - 1, (N_SENTENCES, SRC_LEN - 1), generator=g)
        ids = torch.cat([ids, torch.full((N_SENTENCES, 1), cfg.eos_id)], dim=1).tolist()
        vocab = marian_vocabulary(cfg)
        root.mkdir(parents=True, exist_ok=True)
        (root / "sources.json").write_text(json.dumps({"ids": ids, "tokens": [[vocab[i] for i in r] for r in ids]}))
    if not (root / "hf" / "config.json").is_file():
        build_marian(cfg, seed).save_pretrained(root / "hf")
    if not (root / "ct2" / "model.bin").is_file():
        convert_to_ct2(root / "hf", root / "ct2", marian_vocabulary(cfg))


def convert_to_ct2(hf_dir, out_dir, vocabulary: list[str]) -> None:
    """CTranslate2's TransformersConverter on the saved random model. The converter asks
    AutoTokenizer for the vocabulary; there is no tokenizer (the model reads ids), so
    ``load_tokenizer`` is overridden to hand it the token list (its one documented use)."""
    from ctranslate2.converters import TransformersConverter

    class IdsOnly:
        eos_token, unk_token = "</s>", "<unk>"

        def get_vocab(self) -> dict[str, int]:
            return {token: i for i, token in enumerate(vocabulary)}

    class NoTokenizerConverter(TransformersConverter):
        def load_tokenizer(self, tokenizer_class, model_name_or_path, **kwargs):
            return IdsOnly()

    NoTokenizerConverter(str(hf_dir)).convert(str(out_dir), quantization="float32", force=True)


# Systems: each returns decode() -> list of output lengths -------------------------------------------------
def chunks(rows: list, batch: int) -> list[list]:
    """``rows`` in consecutive batches of ``batch`` (the last may be shorter)."""
    return [rows[i:i + batch] for i in range(0, len(rows), batch)]


def make_decoder(system: str, size: str, beam: int, threads: int, seed: int = 0, batch: int = N_SENTENCES):
    if system.startswith("aiayn"):
        _, search = aiayn_search(size, beam, system, seed=seed, batch=batch)
        return lambda: [len(tokens) + 1 for tokens in search()]  # + the EOS, the 50th emitted token
    root = cache_dir(size)
    sources = json.loads((root / "sources.json").read_text())
    if system.startswith("ct2_"):
        import ctranslate2

        translator = ctranslate2.Translator(str(root / "ct2"), device="cpu", compute_type=system[4:],
                                           inter_threads=1, intra_threads=threads)
        batches = chunks(sources["tokens"], batch)

        def decode() -> list[int]:
            return [len(r.hypotheses[0]) for tokens in batches for r in translator.translate_batch(
                tokens, beam_size=beam, min_decoding_length=OUT_LEN, max_decoding_length=OUT_LEN, max_batch_size=0)]

        return decode

    import torch

    batches = [torch.tensor(ids) for ids in chunks(sources["ids"], batch)]
    if system == "hf":
        from transformers import MarianMTModel

        model = MarianMTModel.from_pretrained(root / "hf").eval()

        def decode() -> list[int]:
            lengths = []
            for src in batches:
                out = model.generate(input_ids=src, attention_mask=torch.ones_like(src), num_beams=beam,
                                     do_sample=False, min_new_tokens=OUT_LEN, max_new_tokens=OUT_LEN)
                lengths += [out.size(1) - 1] * out.size(0)  # minus the decoder start token
            return lengths

        return decode
    raise ValueError(f"unknown system {system!r}; choose from {', '.join(SYSTEMS)}")


def aiayn_search(size: str, beam: int, system: str = "aiayn", seed: int = 0, batch: int = N_SENTENCES):
    """aiayn's random model as ``system`` runs it (float32, bf16 or int8, as ``aiayn translate --dtype``;
    ``_compiled``: with ``--compile``) and a search over the benchmark sentences, ``batch`` at a time:
    () -> each sentence's output tokens (the EOS left out)."""
    import torch

    from aiayn import Transformer, beam_search, greedy_search
    from aiayn.model.compiled import compile_decoding
    from aiayn.precision import bf16_decoding_model, int8_model

    from .peers import model_config

    batches = [torch.tensor(ids) for ids in chunks(json.loads((cache_dir(size) / "sources.json").read_text())["ids"],
                                                   batch)]
    torch.manual_seed(seed)
    model = Transformer(model_config(size)).eval()
    parts = system.split("_")[1:]
    for name, convert in (("int8", int8_model), ("bf16", bf16_decoding_model), ("compiled", compile_decoding)):
        model = convert(model) if name in parts else model  # as Translator and --compile do
    limits = dict(max_len_a=0, max_len_b=OUT_LEN, min_len=OUT_LEN - 1)

    def search() -> list[list[int]]:
        if beam == 1:
            return [h.tokens for src in batches for h in greedy_search(model, src, **limits)]
        return [h[0].tokens for src in batches for h in beam_search(model, src, beam_size=beam, alpha=0.6, **limits)]

    return model, search


def checked(name: str, decode):
    """``decode`` that, on its first call (a warm-up), checks every output is OUT_LEN tokens long."""
    first = True

    def run():
        nonlocal first
        lengths = decode()
        if first and lengths != [OUT_LEN] * N_SENTENCES:
            raise RuntimeError(f"{name}: output lengths {sorted(set(lengths))}, expected all {OUT_LEN}")
        first = False
        return lengths

    return run


def agreement(size: str, threads: int) -> float:
    """Sanity check of the conversion: share of greedy outputs where HF and CTranslate2 float32
    (same weights) produce the identical 50 tokens."""
    import ctranslate2
    import torch
    from transformers import MarianMTModel

    root = cache_dir(size)
    sources = json.loads((root / "sources.json").read_text())
    model = MarianMTModel.from_pretrained(root / "hf").eval()
    hf = model.generate(input_ids=torch.tensor(sources["ids"]), num_beams=1, do_sample=False,
                        min_new_tokens=OUT_LEN, max_new_tokens=OUT_LEN)[:, 1:].tolist()
    translator = ctranslate2.Translator(str(root / "ct2"), device="cpu", intra_threads=threads)
    vocab = {t: i for i, t in enumerate(json.loads((root / "ct2" / "shared_vocabulary.json").read_text()))}
    ct2 = [[vocab[t] for t in r.hypotheses[0]] for r in translator.translate_batch(
        sources["tokens"], beam_size=1, min_decoding_length=OUT_LEN, max_decoding_length=OUT_LEN)]
    return sum(a == b for a, b in zip(hf, ct2)) / len(hf)


# Running ---------------------------------------------------------------------------------------------------------
def child(args) -> None:
    """One system alone, for its peak RSS: one warm-up call, --repeats timed calls, one JSON line."""
    decode = checked(args.system, make_decoder(args.system, args.size, args.beam, args.threads, batch=args.batch))
    decode()  # warm-up and length check
    start = time.perf_counter()
    for _ in range(args.repeats):
        decode()
    seconds = (time.perf_counter() - start) / args.repeats
    print(json.dumps({"system": args.system, "beam": args.beam, "peak_rss_mib": own_peak_rss_mib(),
                      "alone_s_per_call": seconds, "alone_tokens_per_s": N_SENTENCES * OUT_LEN / seconds}))


def main(argv: list[str] | None = None) -> dict | None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", choices=["tiny", "base"], default="tiny")
    p.add_argument("--beams", type=int, nargs="+", default=[1, 4], help="beam sizes; 1 = greedy (default 1 4)")
    p.add_argument("--repeats", type=int, default=5, help="timed calls per system (default 5)")
    p.add_argument("--warmup", type=int, default=1, help="untimed calls per system first (default 1, at least 1:"
                   " the first call checks the output lengths)")
    p.add_argument("--systems", nargs="+", choices=SYSTEMS, default=list(DEFAULT_SYSTEMS),
                   help="default: all but aiayn_bf16 (aiayn cast to bfloat16; add it on hardware with bf16)")
    p.add_argument("--batch", type=int, default=N_SENTENCES, choices=range(1, N_SENTENCES + 1), metavar="N",
                   help=f"sentences per decoding call, 1..{N_SENTENCES} (default {N_SENTENCES}: all in one batch; 1: "
                   "one sentence at a time)")
    p.add_argument("--system", choices=SYSTEMS, help="(internal) run one system alone, for its peak RSS")
    p.add_argument("--beam", type=int, default=1, help="(internal) beam size of --system")
    add_common_args(p)
    args = p.parse_args(argv)
    if args.system:  # no torch import on the CTranslate2 path
        args.threads = args.threads or 1
        return child(args)

    from .common import interleave, median, median_ratio, set_threads

    threads = set_threads(args.threads)
    prepare(args.size)
    payload = {"size": args.size, "threads": threads, "sentences": N_SENTENCES, "batch": args.batch,
               "source_tokens": SRC_LEN,
               "output_tokens": OUT_LEN, "repeats": args.repeats, "warmup": args.warmup, "runs": {}}
    if "hf" in args.systems and "ct2_float32" in args.systems:
        payload["hf_ct2_float32_identical_greedy_outputs"] = agreement(args.size, threads)
    rows = []
    for beam in args.beams:
        fns = {s: checked(s, make_decoder(s, args.size, beam, threads, batch=args.batch)) for s in args.systems}
        times = interleave(fns, args.repeats, max(1, args.warmup))
        run = payload["runs"][f"beam{beam}"] = {}
        for system, ts in times.items():
            run[system] = {"seconds": ts, "median_s": median(ts),
                           "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in ts]),
                           "aiayn_speedup_median": median_ratio(ts, times["aiayn"]) if "aiayn" in times else None}
            for low in LOWER:
                if low in times:
                    run[system][f"{low}_speedup_median"] = median_ratio(ts, times[low])
            if not args.no_memory:
                run[system]["memory"] = peak_rss_of(
                    ["benchmarks.decode_throughput", "--system", system, "--beam", str(beam), "--size", args.size,
                     "--repeats", "1", "--threads", str(threads), "--batch", str(args.batch)])
            rows.append({"beam": beam, "system": system, "tok/s": run[system]["median_tokens_per_s"],
                         "aiayn speedup": run[system]["aiayn_speedup_median"],
                         "aiayn bf16 speedup": run[system].get("aiayn_bf16_speedup_median"),
                         "aiayn int8 speedup": run[system].get("aiayn_int8_speedup_median"),
                         "peak RSS MiB": run[system].get("memory", {}).get("peak_rss_mib")})
        del fns
        for low in LOWER:  # the targets also ask how many outputs a format changes
            if low in args.systems:
                float32 = aiayn_search(args.size, beam, batch=args.batch)[1]()
                other = aiayn_search(args.size, beam, low, batch=args.batch)[1]()
                run[low]["outputs_differing_from_float32"] = sum(a != b for a, b in zip(float32, other))
                print(f"beam {beam}: {low} outputs differing from float32: "
                      f"{run[low]['outputs_differing_from_float32']} of {N_SENTENCES}", file=sys.stderr)
    columns = ["beam", "system", "tok/s", "aiayn speedup", "aiayn bf16 speedup", "aiayn int8 speedup", "peak RSS MiB"]
    print_table(rows, [c for c in columns if not c.startswith("aiayn ") or c == "aiayn speedup"
                       or f"aiayn_{c.split()[1]}" in args.systems])
    if "hf_ct2_float32_identical_greedy_outputs" in payload:
        print(f"HF vs CTranslate2 float32, identical greedy outputs: "
              f"{payload['hf_ct2_float32_identical_greedy_outputs']:.0%}", file=sys.stderr)
    name = f"decode_{args.size}" + ("_bf16" if "aiayn_bf16" in args.systems else "") \
        + ("_compiled" if any(s.endswith("_compiled") for s in args.systems) else "") \
        + (f"_batch{args.batch}" if args.batch != N_SENTENCES else "")
    write_result(name, payload, args.results)
    return payload


if __name__ == "__main__":
    main()
