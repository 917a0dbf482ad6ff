"""Export to a Hugging Face ``MarianMTModel`` folder (config, safetensors weights, ``MarianTokenizer``
files) that ``from_pretrained`` + ``generate`` run with no aiayn installed.

Marian is the same post-norm Transformer as paper §3 (ReLU, shared and tied embeddings scaled by
sqrt(d_model), sinusoidal positions added once) with two differences, handled as follows:

* Sinusoid layout. The paper (and aiayn) interleave sin and cos: feature 2i holds sin, 2i+1 cos of
  the same frequency. Marian puts all sines first, then all cosines, and regenerates its table at
  every load (the table is never saved). Permuting the d_model axis of every weight (embedding
  columns, the input columns of each projection reading the residual stream, the output rows and
  biases of each projection writing it, LayerNorm gains and biases) makes the two models the same
  function: LayerNorm and the residual sums treat features one by one, and the logits contract
  the permuted axis with itself. So Marian's own table is used, and nothing depends on HF keeping
  a shipped one.
* LayerNorm ε. Marian hard-codes PyTorch's default 1e-5; aiayn uses 1e-6. Nothing in the config can
  change it, so the exported model normalises with 1e-5. Measured on the tiny preset trained for an
  hour on the built-in Bible (1,266 test verses, teacher-forced; checks/export_agreement.py):
  max |logit difference| 9.5e-5, and 1.4e-5 (float32 rounding) once Marian's ε is set to 1e-6.
  That is below every gap the searches decided on there: greedy outputs were all identical.

What Marian cannot express is refused: pre-norm (``norm_first``), learned or no positions, relative
or local attention, d_k != d_model / n_heads. So are separate source and target embeddings and an
untied output layer: this exporter writes Marian's shared, tied layout only (CTranslate2 takes
them). A model without attention biases is exported with zero biases (the same function); GELU
and unscaled embeddings have Marian switches.

Token ids are aiayn's (pad 0, BOS 1, EOS 2, unk 3, then the sentencepiece pieces): ``vocab.json``
maps every piece to its sentencepiece id, so ``MarianTokenizer`` gives the same ids as aiayn (and
appends EOS, as aiayn does to a source); ``split_special_tokens`` sends text such as "<unk>" to
sentencepiece too, as aiayn does. Decoding the unknown id gives "<unk>" (aiayn: " ⁇ "); the rest
decodes alike. Decoding starts from BOS (``decoder_start_token_id``).
``generation_config.json`` sets beam 4, ``length_penalty`` 0.6 (HF divides by |Y|^α, not GNMT's
((5+|Y|)/6)^α), never emits pad or BOS, and forces EOS at ``max_length`` as aiayn does at its limit.

At the length limit the three engines differ, and only through a generation argument can HF match
aiayn. aiayn ends every live beam at its limit L (counting the EOS) with EOS at the EOS's real
log-probability. HF's ``forced_eos_token_id`` (the exported config: greedy outputs equal aiayn's with
``max_new_tokens=L``) makes that EOS free: its log-probability is set to 0. CTranslate2 stops there
without an EOS, which ranks the same as a free one. So at α = 0 plain HF and plain CTranslate2 agree
with each other, and rank beams that reach the limit above where aiayn does (on a weakly trained
model, where many beams reach it, some outputs differ). A generation config cannot express "EOS at
its own score": ``aiayn_length_limit(limits, eos_id, num_beams)`` gives the arguments for
``generate`` that do (``max_new_tokens``, ``forced_eos_token_id=None`` and a logits processor that
allows only EOS at each row's limit, leaving its log-probability as it is), and with them HF's
beam search equals aiayn's at the limit too, with aiayn's per-sentence limits a x |source| + b.
"""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import torch
from torch import Tensor

from ..model.config import TransformerConfig
from .common import Exportable, check_common, output_folder, refuse, require, write_manifest

TARGET = "hf (Marian)"


def check_marian(cfg: TransformerConfig) -> None:
    """Refuses, naming the field, what a MarianMTModel cannot compute."""
    check_common(cfg, TARGET)
    if cfg.norm_first:
        refuse(TARGET, "norm_first", True, "(pre-norm): Marian is post-norm only; export --to ctranslate2 instead")
    if cfg.positional != "sinusoidal":
        refuse(TARGET, "positional", cfg.positional, "has no Marian equivalent (sinusoids only); "
               "export --to ctranslate2 instead")
    if not cfg.share_embeddings:
        refuse(TARGET, "share_embeddings", False, "(separate source and target embeddings) is not exported "
               "to Marian; export --to ctranslate2 instead")
    if not cfg.tie_output:
        refuse(TARGET, "tie_output", False, "(an output layer of its own) is not exported to Marian; "
               "export --to ctranslate2 instead")


def marian_config(cfg: TransformerConfig):
    """A ``MarianConfig`` of the same sizes and ids."""
    transformers = require("transformers")
    return transformers.MarianConfig(
        vocab_size=cfg.src_vocab_size, decoder_vocab_size=cfg.tgt_vocab_size, d_model=cfg.d_model,
        encoder_layers=cfg.n_encoder_layers, decoder_layers=cfg.n_decoder_layers,
        encoder_attention_heads=cfg.n_heads, decoder_attention_heads=cfg.n_heads,
        encoder_ffn_dim=cfg.d_ff, decoder_ffn_dim=cfg.d_ff, activation_function=cfg.activation,
        scale_embedding=cfg.scale_embeddings, share_encoder_decoder_embeddings=True, tie_word_embeddings=True,
        max_position_embeddings=cfg.max_positions, dropout=cfg.dropout, attention_dropout=cfg.attention_dropout,
        activation_dropout=cfg.activation_dropout, pad_token_id=cfg.pad_id, bos_token_id=cfg.bos_id,
        eos_token_id=cfg.eos_id, decoder_start_token_id=cfg.bos_id, forced_eos_token_id=cfg.eos_id,
    )


def generation_config(cfg: TransformerConfig):
    """Paper §6.1 as close as HF's generate gets: beam 4, α 0.6 (HF's |Y|^α), pad and BOS never output."""
    transformers = require("transformers")
    return transformers.GenerationConfig(
        num_beams=4, length_penalty=0.6, early_stopping=True, max_length=cfg.max_positions,
        decoder_start_token_id=cfg.bos_id, bos_token_id=cfg.bos_id, eos_token_id=cfg.eos_id,
        pad_token_id=cfg.pad_id, forced_eos_token_id=cfg.eos_id, suppress_tokens=[cfg.pad_id, cfg.bos_id],
    )


def aiayn_length_limit(limits: int | list[int], eos_token_id: int, num_beams: int = 1) -> dict:
    """Arguments for HF ``generate`` that end each row at aiayn's length limit as aiayn does:
    ``limits`` (one per source row, or one for all) count the EOS, like ``DecodeOptions``'
    ``max_len_a * |source| + max_len_b`` (|source| with its EOS; ``decoding.common.length_limits`` computes
    them as aiayn's search does); at a row's limit only EOS is allowed,
    at its real log-probability (HF's ``forced_eos_token_id``, switched off here, makes it free)."""
    transformers = require("transformers")

    class EOSAtLimit(transformers.LogitsProcessor):
        """Beams whose next token would be their L-th: every token but EOS masked, EOS's score kept."""

        def __call__(self, input_ids: Tensor, scores: Tensor) -> Tensor:
            rows = row_limits.to(scores.device).repeat_interleave(scores.size(0) // row_limits.numel())
            at_limit = rows == input_ids.size(-1)  # input_ids: the decoder start token, then L - 1 tokens
            if not at_limit.any():
                return scores
            only_eos = torch.full_like(scores, -float("inf"))
            only_eos[:, eos_token_id] = scores[:, eos_token_id]
            return torch.where(at_limit[:, None], only_eos, scores)

    row_limits = torch.tensor([limits] if isinstance(limits, int) else list(limits))
    return {"max_new_tokens": int(row_limits.max()), "forced_eos_token_id": None, "num_beams": num_beams,
            "logits_processor": transformers.LogitsProcessorList([EOSAtLimit()])}


def sinusoid_permutation(d_model: int) -> Tensor:
    """Marian feature j is aiayn feature perm[j]: the sines (even features), then the cosines (odd)."""
    return torch.cat([torch.arange(0, d_model, 2), torch.arange(1, d_model, 2)])


def marian_state_dict(model, names: list[str]) -> dict[str, Tensor]:
    """aiayn's weights under Marian's ``names`` (its state-dict keys), the d_model axis permuted."""
    cfg, perm = model.config, sinusoid_permutation(model.config.d_model)
    reads = lambda w: w[:, perm]  # noqa: E731 (a linear layer reading the residual stream: its input columns)
    writes = lambda w: w[perm]  # noqa: E731 (one writing it: output rows and bias; LayerNorm gain and bias)
    out: dict[str, Tensor] = {}

    def linear(prefix: str, weight: Tensor, bias: Tensor | None, rows: slice, permute) -> None:
        out[f"{prefix}.weight"] = permute(weight[rows])
        b = bias[rows] if bias is not None else torch.zeros(weight[rows].size(0))
        out[f"{prefix}.bias"] = writes(b) if permute is writes else b

    def norm(prefix: str, ln) -> None:
        out[f"{prefix}.weight"], out[f"{prefix}.bias"] = writes(ln.weight), writes(ln.bias)

    def attention(prefix: str, mha, cross: bool) -> None:
        hk = cfg.n_heads * cfg.d_k
        if cross:
            linear(f"{prefix}.q_proj", mha.w_q.weight, mha.w_q.bias, slice(None), reads)
            kv = (mha.w_kv.weight, mha.w_kv.bias)
        else:
            linear(f"{prefix}.q_proj", mha.w_qkv.weight, mha.w_qkv.bias, slice(0, hk), reads)
            kv = (mha.w_qkv.weight[hk:], None if mha.w_qkv.bias is None else mha.w_qkv.bias[hk:])
        linear(f"{prefix}.k_proj", *kv, slice(0, hk), reads)
        linear(f"{prefix}.v_proj", *kv, slice(hk, None), reads)
        linear(f"{prefix}.out_proj", mha.w_o.weight, mha.w_o.bias, slice(None), writes)

    def ffn(prefix: str, layer) -> None:
        linear(f"{prefix}.fc1", layer.ffn.w_1.weight, layer.ffn.w_1.bias, slice(None), reads)
        linear(f"{prefix}.fc2", layer.ffn.w_2.weight, layer.ffn.w_2.bias, slice(None), writes)
        norm(f"{prefix}.final_layer_norm", layer.res_ffn.norm)

    for i, layer in enumerate(model.encoder_layers):
        p = f"model.encoder.layers.{i}"
        attention(f"{p}.self_attn", layer.self_attn, cross=False)
        norm(f"{p}.self_attn_layer_norm", layer.res_attn.norm)
        ffn(p, layer)
    for i, layer in enumerate(model.decoder_layers):
        p = f"model.decoder.layers.{i}"
        attention(f"{p}.self_attn", layer.self_attn, cross=False)
        norm(f"{p}.self_attn_layer_norm", layer.res_self.norm)
        attention(f"{p}.encoder_attn", layer.cross_attn, cross=True)
        norm(f"{p}.encoder_attn_layer_norm", layer.res_cross.norm)
        ffn(p, layer)
    embedding = reads(model.src_embed.weight)
    for name in names:  # the tied embedding under each of its names; the rest Marian keeps as built
        if name.endswith("embed_tokens.weight") or name in ("model.shared.weight", "lm_head.weight"):
            out[name] = embedding
    return out


@torch.no_grad()
def to_marian(model):
    """An in-memory ``MarianMTModel`` computing the same function as ``model`` (up to LayerNorm ε)."""
    check_marian(model.config)
    transformers = require("transformers")
    marian = transformers.MarianMTModel(marian_config(model.config)).eval()
    marian.generation_config = generation_config(model.config)
    own = marian.state_dict()
    weights = marian_state_dict(model, list(own))
    weights = {k: v.detach().float().contiguous() for k, v in weights.items()}
    missing = sorted(k for k in own if k not in weights and "embed_positions" not in k and k != "final_logits_bias")
    unexpected = marian.load_state_dict(weights, strict=False).unexpected_keys
    if missing or unexpected:  # a transformers version with other names: fail rather than export wrong
        raise RuntimeError(f"the Marian mapping does not fit this transformers version: unset "
                           f"{', '.join(missing[:3]) or 'none'}; unknown {', '.join(unexpected[:3]) or 'none'}")
    marian.final_logits_bias.zero_()
    return marian


def marian_tokenizer(tokenizer, folder: Path, cfg: TransformerConfig):
    """A ``MarianTokenizer`` on aiayn's sentencepiece model, with vocab.json mapping each piece to its id."""
    transformers = require("transformers")
    folder.mkdir(parents=True, exist_ok=True)
    spm_file = folder / "source.spm"
    tokenizer.save(spm_file)
    pieces = tokenizer.pieces(range(tokenizer.vocab_size))
    vocab = folder / "vocab.json"
    vocab.write_text(json.dumps({piece: i for i, piece in enumerate(pieces)}, ensure_ascii=False), encoding="utf-8")
    return transformers.MarianTokenizer(
        source_spm=str(spm_file), target_spm=str(spm_file), vocab=str(vocab), unk_token=pieces[tokenizer.unk_id],
        eos_token=pieces[cfg.eos_id], pad_token=pieces[cfg.pad_id], model_max_length=cfg.max_positions,
        split_special_tokens=True)  # text such as "<unk>" goes to sentencepiece, as in aiayn


@contextlib.contextmanager
def quiet_transformers() -> Iterator[None]:
    """No progress bar (save_pretrained draws one), and no advice to install sacremoses (MarianTokenizer
    warns without it, though encoding never uses it)."""
    hf_logging = require("transformers").utils.logging
    was_enabled = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Recommended: pip install sacremoses")
            yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()


def export_marian(exportable: Exportable, out: str | Path) -> Path:
    """Writes the MarianMTModel folder ``out``: config.json, generation_config.json,
    model.safetensors, source.spm, target.spm, vocab.json, tokenizer_config.json and aiayn.json."""
    check_marian(exportable.config)
    marian = to_marian(exportable.model)
    with output_folder(out) as folder, quiet_transformers():
        tokenizer = marian_tokenizer(exportable.tokenizer, folder, exportable.config)
        tokenizer.save_pretrained(folder)
        marian.save_pretrained(folder)
        write_manifest(folder, exportable, "hf", layer_norm_eps_exported=1e-5)
    return Path(out)
