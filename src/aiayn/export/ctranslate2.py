"""Export to a CTranslate2 model (built with its Python spec API), and run one with aiayn's options.

The spec is filled from aiayn's weights directly, with no Hugging Face model in between, so the
exported model is aiayn's function in CTranslate2's kernels:

* positions: aiayn's own table (the paper's interleaved sinusoids, the learned vectors, or zeros
  for ``positional="none"``) is shipped as the position encodings, ``max_positions`` rows;
  CTranslate2 would otherwise make its own sinusoids, in the [sin | cos] layout;
* LayerNorm ε: the model's (``layer_norm_epsilon`` in the model config), 1e-6 by default;
* pre-norm (``norm_first``) with its final LayerNorm per stack, post-norm (the paper), ReLU or GELU,
  unscaled embeddings, no attention biases, an untied output layer and separate source and target
  embeddings (of one joint vocabulary) are all expressible and exported;
* the source gets EOS appended (``add_source_eos``) and decoding starts from BOS, as in aiayn.

Refused (one line naming the field): relative or local self-attention (CTranslate2's relative
positions are Shaw's without the skewing and per-head tables aiayn has), d_k != d_model / n_heads,
a target vocabulary of another size than the source's.

``--quantization int8`` stores int8 weights (about 4x smaller than float32; outputs may differ from
float32 on some sentences). The folder also holds ``spm.model`` (the tokenizer) and ``aiayn.json``.

``CTranslate2Translator`` runs an exported folder with aiayn's decoding options: sources cut to the
model's positions, aiayn's length limit a x (source length) + b counting the EOS (one call per
distinct limit; greedy needs one call, then only the outputs the limit cut are decoded again),
``min_len``, pad and BOS never output. Greedy search is aiayn's search: the same tokens. Beam
search differs in its score: CTranslate2 divides the log-probability by |Y|^α where aiayn uses
GNMT's ((5+|Y|)/6)^α, so ``alpha`` is passed on as CTranslate2's ``length_penalty`` and beams of
α > 0 may rank differently; with α = 0 both rank by log-probability. Scores also differ slightly
because CTranslate2 renormalises the softmax after suppressing pad and BOS, and aiayn does not.

At the length limit CTranslate2 itself stops a beam without an EOS, so its score leaves the EOS out
(as if it were free), where aiayn adds the EOS at its real log-probability: on a weakly trained
model many beams reach the limit and the two rank them differently. Nothing in CTranslate2's
options changes that, so the runner asks for every beam with its end token, scores the EOS after
each cut one (``score_batch``) and ranks them again: at α = 0 it then picks aiayn's hypotheses at the
limit too. Calling ``ctranslate2.Translator`` directly on an export keeps CTranslate2's rule.
What remains cannot be changed from outside: CTranslate2 suppresses pad and BOS before its softmax
(renormalising), aiayn after it. On a barely trained model that puts real mass on them, the gap
adds up over long outputs and can change which beams survive: the micro model after 3 steps, 200
test lines, beam 4, α = 0, default limits, differs from aiayn on 23 lines without the EOS scoring
and 12 with it, all 12 outputs of about 100 tokens whose total log P differs by 0.3 to 1.4.
"""

from __future__ import annotations

import logging
from itertools import groupby
from pathlib import Path

import numpy as np
import torch

from ..data import Tokenizer
from ..decoding.common import length_limits
from ..decoding.options import DecodeOptions
from ..errors import UsageError
from ..model.config import TransformerConfig
from . import QUANTIZATIONS
from .common import Exportable, check_common, output_folder, read_manifest, require, write_manifest

log = logging.getLogger("aiayn")
TARGET = "ctranslate2"


def check_ctranslate2(cfg: TransformerConfig) -> None:
    """Refuses, naming the field, what CTranslate2's Transformer spec cannot compute."""
    check_common(cfg, TARGET)


def _array(t: torch.Tensor) -> np.ndarray:
    return t.detach().float().cpu().numpy()


def _linear(spec, weight: torch.Tensor, bias: torch.Tensor | None) -> None:
    spec.weight = _array(weight)
    if bias is not None:
        spec.bias = _array(bias)


def _norm(spec, ln) -> None:
    spec.gamma, spec.beta = _array(ln.weight), _array(ln.bias)


def _attention(spec, residual, mha, cross: bool) -> None:
    """CTranslate2's self-attention has one fused [Q; K; V] matrix, its cross-attention Q then fused
    [K; V]: the layouts of aiayn's w_qkv and w_kv."""
    _norm(spec.layer_norm, residual.norm)
    projections = [mha.w_q, mha.w_kv, mha.w_o] if cross else [mha.w_qkv, mha.w_o]
    for linear_spec, linear in zip(spec.linear, projections):
        _linear(linear_spec, linear.weight, linear.bias)


def _ffn(spec, layer) -> None:
    _norm(spec.layer_norm, layer.res_ffn.norm)
    _linear(spec.linear_0, layer.ffn.w_1.weight, layer.ffn.w_1.bias)
    _linear(spec.linear_1, layer.ffn.w_2.weight, layer.ffn.w_2.bias)


def _position_table(model) -> np.ndarray:
    """(max_positions, d_model): what aiayn adds to the embeddings at each position."""
    cfg = model.config
    if model.positions is None:
        return np.zeros((cfg.max_positions, cfg.d_model), dtype=np.float32)
    return _array(model.positions.table[: cfg.max_positions])


@torch.no_grad()
def ctranslate2_spec(model, tokenizer: Tokenizer):
    """A ``ctranslate2.specs.TransformerSpec`` holding ``model``'s weights and ``tokenizer``'s pieces."""
    cfg = model.config
    check_ctranslate2(cfg)
    specs = require("ctranslate2").specs
    activation = specs.Activation.RELU if cfg.activation == "relu" else specs.Activation.GELU
    spec = specs.TransformerSpec.from_config((cfg.n_encoder_layers, cfg.n_decoder_layers), cfg.n_heads,
                                             pre_norm=cfg.norm_first, activation=activation)
    table = _position_table(model)
    enc, dec = spec.encoder, spec.decoder
    enc.embeddings[0].weight, dec.embeddings.weight = _array(model.src_embed.weight), _array(model.tgt_embed.weight)
    enc.scale_embeddings = dec.scale_embeddings = cfg.scale_embeddings
    enc.position_encodings.encodings, dec.position_encodings.encodings = table, table
    output = model.tgt_embed.weight if model.output_proj is None else model.output_proj.weight
    dec.projection.weight = _array(output)
    if cfg.norm_first:
        _norm(enc.layer_norm, model.encoder_norm)
        _norm(dec.layer_norm, model.decoder_norm)
    for layer_spec, layer in zip(enc.layer, model.encoder_layers):
        _attention(layer_spec.self_attention, layer.res_attn, layer.self_attn, cross=False)
        _ffn(layer_spec.ffn, layer)
    for layer_spec, layer in zip(dec.layer, model.decoder_layers):
        _attention(layer_spec.self_attention, layer.res_self, layer.self_attn, cross=False)
        _attention(layer_spec.attention, layer.res_cross, layer.cross_attn, cross=True)
        _ffn(layer_spec.ffn, layer)
    pieces = tokenizer.pieces(range(tokenizer.vocab_size))
    spec.register_source_vocabulary(pieces)
    spec.register_target_vocabulary(pieces)
    spec.config.unk_token, spec.config.bos_token = pieces[tokenizer.unk_id], pieces[cfg.bos_id]
    spec.config.eos_token, spec.config.decoder_start_token = pieces[cfg.eos_id], pieces[cfg.bos_id]
    spec.config.add_source_eos, spec.config.add_source_bos = True, False
    spec.config.layer_norm_epsilon = cfg.layer_norm_eps
    return spec


def export_ctranslate2(exportable: Exportable, out: str | Path, quantization: str = "float32") -> Path:
    """Writes the CTranslate2 model folder ``out`` (model.bin, config.json, shared_vocabulary.json)
    plus spm.model and aiayn.json; ``quantization``: float32 (exact) or int8 (smaller, faster)."""
    if quantization not in QUANTIZATIONS:
        raise UsageError(f"unknown quantization {quantization!r}; choose one of {', '.join(QUANTIZATIONS)}")
    spec = ctranslate2_spec(exportable.model, exportable.tokenizer)
    converters = require("ctranslate2.converters")

    class SpecConverter(converters.Converter):
        def _load(self):
            return spec

    with output_folder(out) as folder:
        SpecConverter().convert(str(folder), quantization=quantization)
        exportable.tokenizer.save(folder / "spm.model")
        write_manifest(folder, exportable, TARGET, quantization=quantization)
    return Path(out)


# How each ``DecodeOptions`` field reaches CTranslate2: mapped (to what), or refused unless it has the given
# value (why). tests/export walks every field: a new one must be placed here.
OPTION_MAP = {
    "beam_size": "beam_size", "alpha": "length_penalty (ranked again with aiayn's EOS at the limit)",
    "max_len_a": "max_decoding_length per row", "max_len_b": "max_decoding_length per row",
    "min_len": "min_decoding_length", "nbest": "num_hypotheses, cut to nbest", "max_tokens": "max_batch_size (tokens)",
}
OPTION_REFUSED = {
    "early_stopping": (True, "--exact-beam: CTranslate2 always stops a sentence at beam-size finished hypotheses; "
                             "drop --exact-beam, or decode with --engine aiayn"),
}


def check_options(opts: DecodeOptions) -> None:
    """A one-line refusal for an option CTranslate2 cannot honour (``OPTION_REFUSED``)."""
    for name, (allowed, why) in OPTION_REFUSED.items():
        if getattr(opts, name) != allowed:
            raise UsageError(why)


class CTranslate2Translator:
    """An exported CTranslate2 folder and its spm.model, translating with aiayn's ``DecodeOptions``."""

    def __init__(self, folder: str | Path, device: str = "cpu", compute_type: str = "default", threads: int = 0):
        """``threads``: CTranslate2's intra_threads (0: its default)."""
        ctranslate2 = require("ctranslate2")
        folder = Path(folder)
        manifest = read_manifest(folder)
        if manifest.get("target") != TARGET:
            raise UsageError(f"{folder} is a {manifest.get('target')} export, not a CTranslate2 one")
        self.config = TransformerConfig.from_dict(manifest["model_config"])
        self.tokenizer = Tokenizer.load(folder / "spm.model")
        kind, _, index = str(device).partition(":")
        try:
            self.translator = ctranslate2.Translator(str(folder), device=kind, device_index=int(index or 0),
                                                     compute_type=compute_type, intra_threads=threads)
        except (RuntimeError, ValueError) as e:
            raise UsageError(f"CTranslate2 cannot load {folder} on {device} ({compute_type}): {e}") from None
        pieces = self.tokenizer.pieces(range(self.tokenizer.vocab_size))
        self.ids = {piece: i for i, piece in enumerate(pieces)}
        self.suppressed = [[pieces[self.config.pad_id]], [pieces[self.config.bos_id]]]

    def translate_nbest(self, lines: list[str], options: DecodeOptions | None = None, progress=None,
                        ) -> list[list[tuple[str, float]]]:
        """Up to ``nbest`` (text, score) pairs per line, best first; an empty line gives no hypothesis."""
        out = []
        for hyps in self.translate_ids(lines, options, progress):
            texts = self.tokenizer.decode([ids for ids, _ in hyps]) if hyps else []
            out.append(list(zip(texts, [score for _, score in hyps])))
        return out

    def translate_ids(self, lines: list[str], options: DecodeOptions | None = None, progress=None,
                      ) -> list[list[tuple[list[int], float]]]:
        """As ``translate_nbest``, with each hypothesis' token ids (EOS left out) instead of its text."""
        opts = options or DecodeOptions()
        check_options(opts)
        room = self.config.max_positions - 1  # one position for EOS
        sources = []
        for n, ids in enumerate(self.tokenizer.encode(lines)):
            if len(ids) > room:
                log.warning("line %d has %d tokens; the model takes %d, so the rest is not translated", n + 1,
                            len(ids), room)
            sources.append(self.tokenizer.pieces(ids[:room]))
        results: list[list[tuple[list[int], float]]] = [[] for _ in lines]
        limits = output_limits(sources, opts, self.config.max_positions)
        rows = [i for i, s in enumerate(sources) if s and limits[i] > 1]  # a limit of 1 leaves room for EOS only
        if opts.beam_size == 1 and rows:
            # A limit only cuts a greedy output: one call at the largest limit serves every row that
            # ended earlier; the rows it cut are decoded again below, with their own limit.
            lengths = self._translate(rows, sources, results, opts, max(limits[i] for i in rows))
            rows = [i for i, n in zip(rows, lengths) if n >= limits[i] - 1]
        for max_len, group in groupby(sorted(rows, key=limits.__getitem__), key=limits.__getitem__):
            self._translate(list(group), sources, results, opts, max_len)
        if progress is not None:
            progress.update(len(lines))
        return results

    def _translate(self, rows: list[int], sources, results, opts: DecodeOptions, max_len: int) -> list[int]:
        """Decodes ``rows`` with aiayn's length limit (which counts the EOS; CTranslate2's does not)
        into ``results`` (ids, score); returns the length of each row's best hypothesis. Greedy scores are log P.

        At the limit aiayn ends every live beam with EOS at its real log-probability; CTranslate2
        stops them without one (its hypotheses are ranked as if the EOS were free). So every beam
        is asked for, with its end token; those the limit cut get their EOS's log-probability from
        ``score_batch`` and are ranked again, as aiayn ranks them (``tests/export/test_export.py``)."""
        out = self.translator.translate_batch(
            [sources[i] for i in rows], beam_size=opts.beam_size, num_hypotheses=opts.beam_size,
            length_penalty=opts.alpha if opts.beam_size > 1 else 0.0, max_decoding_length=max_len - 1,
            min_decoding_length=min(opts.min_len, max_len - 1), max_input_length=0,
            suppress_sequences=self.suppressed, return_scores=True, return_end_token=True,
            max_batch_size=max(1, opts.max_tokens // opts.beam_size), batch_type="tokens")
        ranked = self._with_eos_at_limit([sources[i] for i in rows], out, opts)
        lengths = []
        for i, hyps in zip(rows, ranked):
            results[i] = [([self.ids[p] for p in h], score) for h, score in hyps[: opts.nbest]]
            lengths.append(len(hyps[0][0]))
        return lengths

    def _with_eos_at_limit(self, sources, out, opts: DecodeOptions) -> list[list[tuple[list[str], float]]]:
        """Each row's hypotheses (pieces without EOS, score), best first, a hypothesis that the
        limit cut scored with its EOS as aiayn scores it: CTranslate2's score is log P / |Y|^α
        (|Y| with the EOS when there is one), so log P is recovered, the EOS added, and |Y| + 1 used."""
        eos = self.tokenizer.pieces([self.config.eos_id])[0]
        alpha = opts.alpha if opts.beam_size > 1 else 0.0
        cut = [(r, h) for r, result in enumerate(out) for h, hyp in enumerate(result.hypotheses) if hyp[-1:] != [eos]]
        eos_log_probs = {}
        if cut:  # the log-probabilities of each cut hypothesis' tokens, then of the EOS after them
            scored = self.translator.score_batch([sources[r] for r, _ in cut], [out[r].hypotheses[h] for r, h in cut],
                                                 max_input_length=0)
            eos_log_probs = {key: s.log_probs[-1] for key, s in zip(cut, scored)}
        ranked = []
        for r, result in enumerate(out):
            hyps = []
            for h, (hyp, score) in enumerate(zip(result.hypotheses, result.scores)):
                if (r, h) in eos_log_probs:
                    n = len(hyp)
                    score = (score * n**alpha + eos_log_probs[r, h]) / (n + 1) ** alpha
                hyps.append((hyp[:-1] if hyp[-1:] == [eos] else hyp, score))
            ranked.append(sorted(hyps, key=lambda pair: -pair[1]))  # stable: CTranslate2's order on ties
        return ranked

    def translate(self, lines: list[str], options: DecodeOptions | None = None) -> list[str]:
        return [hyps[0][0] if hyps else "" for hyps in self.translate_nbest(lines, options)]


def output_limits(sources: list[list[str]], opts: DecodeOptions, max_positions: int) -> list[int]:
    """Each source's output-length limit, EOS included, by aiayn's rule (CTranslate2 appends the source's EOS)."""
    lengths = torch.tensor([len(s) + 1 for s in sources], dtype=torch.long)
    return length_limits(lengths, opts.max_len_a, opts.max_len_b, max_positions).tolist()


# --dtype -> CTranslate2 compute type; "default": the type the model was exported in (float32 or int8)
COMPUTE_TYPES = {"float32": "default", "bfloat16": "bfloat16", "int8": "int8"}


def translate_lines(folder: str | Path, lines: list[str], options: DecodeOptions, device: str = "cpu",
                    progress=None, dtype: str = "float32") -> list[list[tuple[str, float]]]:
    """``aiayn translate --engine ctranslate2``: (text, score) n-best lists of ``lines``."""
    if dtype not in COMPUTE_TYPES:
        raise UsageError(f"--dtype {dtype} is not available with --engine ctranslate2; choose one of "
                         f"{', '.join(COMPUTE_TYPES)}")
    return CTranslate2Translator(folder, device, COMPUTE_TYPES[dtype]).translate_nbest(lines, options, progress)
