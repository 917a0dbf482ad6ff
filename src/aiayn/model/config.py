"""Model configurations: the hyper-parameters of paper §3 and Table 3, one dataclass per architecture.

``LayerConfig`` holds what every stack shares; ``TransformerConfig`` (encoder-decoder) and
``LanguageModelConfig`` (decoder-only) add their own. Every field defaults to the paper's Transformer-base choice. Fields that depart from the paper
(pre-norm, GELU, learned positions, untied embeddings) exist for modern users and for Table 3's
rows; their defaults are the paper's.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

from ..checks import Allowed, check_fields
from ..errors import ConfigError
from .attention.variants import VARIANTS

ATTENTION_VARIANTS = ("full", *VARIANTS)  # "full": plain multi-head attention, no variant module
POSITIONALS = ("sinusoidal", "learned", "none")
_SIZE, _LAYERS, _VOCAB = 65_536, 1024, 1 << 24  # sane upper bounds: a checkpoint's config is untrusted input
RANGES = {  # every numeric and boolean field of the model configs, checked first in __post_init__
    "d_model": Allowed(int, 1, _SIZE), "n_heads": Allowed(int, 1, 1024), "d_ff": Allowed(int, 1, 16 * _SIZE),
    "d_k": Allowed(int, 1, _SIZE, optional=True), "d_v": Allowed(int, 1, _SIZE, optional=True),
    "dropout": Allowed(float, 0, 1, hi_open=True), "attention_dropout": Allowed(float, 0, 1, hi_open=True),
    "activation_dropout": Allowed(float, 0, 1, hi_open=True), "max_positions": Allowed(int, 2, 16 * _SIZE),
    "layer_norm_eps": Allowed(float, 0, 1, lo_open=True), "src_vocab_size": Allowed(int, 1, _VOCAB),
    "tgt_vocab_size": Allowed(int, 1, _VOCAB, optional=True), "vocab_size": Allowed(int, 1, _VOCAB),
    "n_encoder_layers": Allowed(int, 1, _LAYERS), "n_decoder_layers": Allowed(int, 1, _LAYERS),
    "n_layers": Allowed(int, 1, _LAYERS), "n_classes": Allowed(int, 0, _VOCAB),
    "max_relative_distance": Allowed(int, 0, _SIZE), "local_block": Allowed(int, 1, _SIZE),
    "local_memory": Allowed(int, 0, _SIZE), "pad_id": Allowed(int, 0), "bos_id": Allowed(int, 0),
    "eos_id": Allowed(int, 0), **{flag: Allowed(bool) for flag in (
        "attention_bias", "norm_first", "share_embeddings", "tie_output", "scale_embeddings", "relative_values",
        "relative_share_heads")},
}


class DictConfig:
    """What every model config shares: built from a mapping (unknown keys name the known ones), and back."""

    @classmethod
    def from_dict(cls, values: dict[str, Any]):
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ConfigError(
                f"unknown model config key(s): {', '.join(unknown)}; known keys: {', '.join(sorted(known))}",
                field=unknown[0])
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass
class LayerConfig(DictConfig):
    """The layer hyper-parameters every Transformer here shares (paper §3, Table 3).

    Table 3 rows by field: (A) ``n_heads`` with ``d_k = d_v = d_model / n_heads`` (the default
    when ``d_k``/``d_v`` are None); (B) ``d_k`` alone; (C) ``d_model``, ``d_ff`` and the layer
    counts of each architecture; (D) ``dropout`` (ε_ls is the loss's, see ``TrainConfig``);
    (E) ``positional="learned"``.

    Departures from the paper, each off by default:
      * ``norm_first``: pre-norm ``x + Sublayer(LayerNorm(x))`` plus a final LayerNorm per stack,
        instead of the paper's post-norm ``LayerNorm(x + Sublayer(x))``. Trains more easily deep.
      * ``activation="gelu"`` instead of the paper's ReLU in the feed-forward network.
      * ``tie_output=False``: a pre-softmax matrix of its own.
      * ``attention_dropout``/``activation_dropout``: dropout the paper does not use (0.0).
      * ``attention_bias``: biases on W^Q, W^K, W^V, W^O, as fairseq, Marian and
        ``torch.nn.MultiheadAttention`` have; the paper's equations (and tensor2tensor) have none.
        On by default: with them base and big land within 3% of the paper's 65M / 213M (base without: 63.05M). The key bias
        cancels in the softmax: its gradient is zero up to rounding, which Adam then magnifies.
      * ``attention="relative"``: self-attention with learned relative-distance embeddings
        (Shaw et al. 2018; skewed in causal layers as in the Music Transformer), clipped at
        ``max_relative_distance``; ``relative_values`` adds Shaw's value term,
        ``relative_share_heads`` one table for all heads. Usually with ``positional="none"``.
      * ``attention="local"``: Parmar et al.'s 1D local self-attention: query blocks of
        ``local_block`` positions, each attending to itself (causally) and the ``local_memory``
        positions before it (and after it, in the encoder). Cross-attention stays full.
      * ``attention_kernel="math"``: the explicit softmax(QKᵀ/√d_k)V instead of PyTorch's fused
        kernel (same function; slower, for checking). Attention weights can be asked of either.
    """

    d_model: int = 512
    n_heads: int = 8
    d_k: int | None = None  # None: d_model / n_heads
    d_v: int | None = None  # None: d_model / n_heads
    d_ff: int = 2048
    dropout: float = 0.1  # P_drop: residual and (embedding + positional encoding)
    attention_dropout: float = 0.0
    activation_dropout: float = 0.0
    activation: Literal["relu", "gelu"] = "relu"
    attention_bias: bool = True
    positional: Literal["sinusoidal", "learned", "none"] = "sinusoidal"
    max_positions: int = 1024  # learned: hard limit; sinusoidal: precomputed, extends on demand
    norm_first: bool = False
    layer_norm_eps: float = 1e-6
    tie_output: bool = True  # target embedding = pre-softmax linear layer
    scale_embeddings: bool = True  # multiply embeddings by sqrt(d_model) (§3.4)
    attention: str = "full"  # one of ATTENTION_VARIANTS: a str, so a registered variant needs no edit here
    attention_kernel: Literal["sdpa", "math"] = "sdpa"
    max_relative_distance: int = 16  # k: relative distances are clipped to [-k, k]
    relative_values: bool = False
    relative_share_heads: bool = False
    local_block: int = 256  # l_q (the Image Transformer's 1D local: 256)
    local_memory: int = 512  # l_m (the Image Transformer's 1D local: 512)
    pad_id: int = 0
    bos_id: int = 1
    eos_id: int = 2

    def __post_init__(self) -> None:
        check_fields(self, RANGES)
        if self.d_k is None or self.d_v is None:
            if self.n_heads < 1 or self.d_model % self.n_heads:
                raise ValueError(
                    f"d_model={self.d_model} is not divisible by n_heads={self.n_heads}; "
                    "set d_k and d_v explicitly"
                )
            self.d_k = self.d_k or self.d_model // self.n_heads
            self.d_v = self.d_v or self.d_model // self.n_heads
        for name, allowed in (("activation", ("relu", "gelu")), ("positional", POSITIONALS),
                              ("attention", ATTENTION_VARIANTS), ("attention_kernel", ("sdpa", "math"))):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        if self.attention in VARIANTS:  # fields only the chosen variant reads are checked by it
            VARIANTS[self.attention].check_config(self)
        for name in ("pad_id", "bos_id", "eos_id"):
            if not 0 <= getattr(self, name) < self.smallest_vocab():
                raise ValueError(f"{name}={getattr(self, name)} is outside the vocabulary")

    def smallest_vocab(self) -> int:
        raise NotImplementedError



@dataclass
class TransformerConfig(LayerConfig):
    """The encoder-decoder Transformer (paper §3, Table 3): ``LayerConfig`` plus both stacks.

    ``share_embeddings=False`` (not the paper): separate source and target embedding matrices,
    needed when the vocabularies differ.
    """

    src_vocab_size: int = 37000
    tgt_vocab_size: int | None = None  # None: the same (joint) vocabulary as the source
    n_encoder_layers: int = 6
    n_decoder_layers: int = 6
    share_embeddings: bool = True  # source embedding = target embedding (one joint vocabulary)

    def __post_init__(self) -> None:
        if self.tgt_vocab_size is None:
            self.tgt_vocab_size = self.src_vocab_size
        if self.share_embeddings and self.src_vocab_size != self.tgt_vocab_size:
            raise ValueError("share_embeddings=True needs src_vocab_size == tgt_vocab_size")
        super().__post_init__()

    def smallest_vocab(self) -> int:
        return min(self.src_vocab_size, self.tgt_vocab_size)

    # Presets -----------------------------------------------------------------------------
    @classmethod
    def base(cls, **overrides: Any) -> TransformerConfig:
        """Table 3, row 'base': N=6, d_model=512, d_ff=2048, h=8, P_drop=0.1 (65M parameters)."""
        return cls.from_dict(overrides)

    @classmethod
    def big(cls, **overrides: Any) -> TransformerConfig:
        """Table 3, row 'big': N=6, d_model=1024, d_ff=4096, h=16, P_drop=0.3 (213M parameters)."""
        return cls.from_dict({"d_model": 1024, "d_ff": 4096, "n_heads": 16, "dropout": 0.3, **overrides})

    @classmethod
    def tiny(cls, **overrides: Any) -> TransformerConfig:
        """CPU-sized: d_model=256, 4 heads, d_ff=1024, 3 + 3 layers; everything else the paper's."""
        return cls.from_dict(
            {"d_model": 256, "n_heads": 4, "d_ff": 1024, "n_encoder_layers": 3, "n_decoder_layers": 3,
             **overrides}
        )

    @classmethod
    def student(cls, **overrides: Any) -> TransformerConfig:
        """A distillation student (docs/distillation.md): tiny's width, a deep encoder and a shallow
        decoder, 4 + 1 layers; the decoder runs once per output token, the encoder once per sentence.
        Pre-norm: post-norm's 6-layer encoder stalled on tiny's 250-update warm-up (Wang et al. 2019)."""
        return cls.tiny(**{"n_encoder_layers": 4, "n_decoder_layers": 1, "norm_first": True, **overrides})

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> TransformerConfig:
        """One of ``tiny``, ``base``, ``big``, ``student`` by name."""
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
        return getattr(cls, name)(**overrides)


PRESETS = ("tiny", "base", "big", "student")


@dataclass
class LanguageModelConfig(LayerConfig):
    """A decoder-only Transformer (a language model: music, pixels): ``LayerConfig`` plus one stack.

    ``n_classes`` > 0 adds a learned class embedding to every position (the Image Transformer's
    class conditioning); 0: unconditional. ``voice_embedding`` V > 0 adds a learned embedding of the
    position mod V (music: the voice S A T B of the token predicted, V = 4) and ``metre_embedding``
    S > 0 one of the step within a bar, position // V mod S (16 sixteenths); positions count from BOS
    (0), so position p predicts the sequence's token p. 0 (the default, and old runs' configs): none.
    """

    vocab_size: int = 512
    n_layers: int = 6
    n_classes: int = 0
    voice_embedding: int = 0
    metre_embedding: int = 0

    def smallest_vocab(self) -> int:
        return self.vocab_size


RANGES.update({"voice_embedding": Allowed(int, 0, 1024), "metre_embedding": Allowed(int, 0, 1024)})
RANGES.update({"embed_dim": Allowed(int, 1, _SIZE), "hidden": Allowed(int, 1, _SIZE),
               "maxout_dim": Allowed(int, 1, _SIZE)})
_ATTENTION_FLAG = Allowed(bool)  # RNNSearchConfig.attention; not in RANGES, where "attention" is LayerConfig's variant


@dataclass
class RNNSearchConfig(DictConfig):
    """RNNsearch (Bahdanau, Cho & Bengio 2015) and, with ``attention=False``, its control RNNencdec.

    Defaults are the paper's (§4.2, appendix A): word embeddings of ``embed_dim`` = 620, GRUs of
    ``hidden`` = n = 1000 units (each direction of the encoder, and the decoder), a deep output of
    2 x ``maxout_dim`` units maxed in pairs down to l = 500, separate source and target embeddings
    (``share_embeddings=False``; True needs one joint vocabulary), no dropout. ``dropout`` (not the
    paper) applies to the source and target embeddings and to the maxout output t_i.
    ``max_positions`` caps decoding's output length (and the length of training sentences); an
    RNN has no positions to run out of.
    """

    src_vocab_size: int = 30000
    tgt_vocab_size: int | None = None  # None: the same (joint) vocabulary as the source
    embed_dim: int = 620
    hidden: int = 1000
    maxout_dim: int = 500
    attention: bool = True  # False: RNNencdec, one fixed context vector
    dropout: float = 0.0
    max_positions: int = 1024
    share_embeddings: bool = False
    pad_id: int = 0
    bos_id: int = 1
    eos_id: int = 2

    def __post_init__(self) -> None:
        check_fields(self, RANGES)
        _ATTENTION_FLAG.check("attention", self.attention)
        if self.tgt_vocab_size is None:
            self.tgt_vocab_size = self.src_vocab_size
        if self.share_embeddings and self.src_vocab_size != self.tgt_vocab_size:
            raise ValueError("share_embeddings=True needs src_vocab_size == tgt_vocab_size")
        for name in ("pad_id", "bos_id", "eos_id"):
            if not 0 <= getattr(self, name) < self.smallest_vocab():
                raise ValueError(f"{name}={getattr(self, name)} is outside the vocabulary")

    @property
    def d_model(self) -> int:
        """The width the Noam learning-rate schedule scales by (the trainer reads ``d_model``): n."""
        return self.hidden

    def smallest_vocab(self) -> int:
        return min(self.src_vocab_size, self.tgt_vocab_size)

    @classmethod
    def preset(cls, name: str, **overrides: Any) -> RNNSearchConfig:
        """``tiny`` (CPU-sized: 256-wide embeddings, GRUs and maxout), or ``base``/``big``: the paper's sizes."""
        if name not in PRESETS:
            raise ValueError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
        if name == "student":  # a Transformer's shape: RNNsearch has no layer counts to deepen or thin
            raise ValueError("preset student is the Transformer's (4 encoder + 1 decoder layers); RNNsearch takes "
                             "tiny, base or big")
        sizes = {"embed_dim": 256, "hidden": 256, "maxout_dim": 256} if name == "tiny" else {}
        return cls.from_dict({**sizes, **overrides})
