"""A decoder-only Transformer: the language model of the Image and Music Transformers
(Parmar et al. 2018; Huang et al. 2018).

Legend: B batch, T length, V vocabulary, N decoding rows (B x beams).

The same layers, embeddings, positions and key/value cache as the encoder-decoder's decoder, minus
the encoder-decoder attention. A sequence is predicted left to right from BOS: the input is
BOS + x[:-1], the target x. With ``n_classes`` > 0 a learned class embedding is added at every
position (Parmar et al. 2018, §4: class-conditional generation). With ``voice_embedding`` /
``metre_embedding`` a learned embedding of each position's voice and step in the bar is added too
(music); it follows the real position: ``grid_start`` for a window cut from inside a sequence, the
cache position (minus left padding) when decoding.
"""

from __future__ import annotations

import torch.nn.functional as F
from torch import Tensor, nn

from .cache import DecoderState, LayerCaches
from .config import LanguageModelConfig
from .embeddings import GridEmbedding, TokenEmbedding, embed_inputs, positional_encoding
from .layers import DecoderLayer, Dropout, init_linear_weights


class LanguageModel(nn.Module):
    """N decoder layers without cross-attention over BOS + tokens, and a (tied) softmax."""

    architecture = "decoder_only"
    config_class = LanguageModelConfig

    def __init__(self, config: LanguageModelConfig):
        super().__init__()
        cfg = self.config = config
        self.embed = TokenEmbedding(cfg.vocab_size, cfg.d_model, cfg.scale_embeddings)
        self.positions = positional_encoding(cfg)
        self.class_embed = nn.Embedding(cfg.n_classes, cfg.d_model) if cfg.n_classes else None
        grid = cfg.voice_embedding or cfg.metre_embedding  # off by default: old runs have no such weights
        std = 1.0 if cfg.scale_embeddings else cfg.d_model**-0.5  # the token embeddings' scale
        self.grid = GridEmbedding(cfg.d_model, cfg.voice_embedding, cfg.metre_embedding, std) if grid else None
        self.embed_dropout = Dropout(cfg.dropout)
        self.layers = nn.ModuleList(DecoderLayer(cfg, cross=False) for _ in range(cfg.n_layers))
        self.norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps) if cfg.norm_first else nn.Identity()
        self.output_proj = None if cfg.tie_output else nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        init_linear_weights(self)

    def _inputs(self, tokens: Tensor, classes: Tensor | None, start: int | Tensor = 0,
                grid_start: int | Tensor | None = None) -> Tensor:
        if (classes is None) != (self.class_embed is None):
            raise ValueError("a class-conditional model needs classes, and an unconditional one takes none")
        extra = None if classes is None else self.class_embed(classes)[:, None, :]  # (B, 1, d_model)
        if self.grid is not None:
            where = start if grid_start is None else grid_start
            cells = self.grid(tokens.size(1), where, tokens.device)  # (1 or B, T, d_model)
            extra = cells if extra is None else extra + cells
        return embed_inputs(self.embed, self.positions, self.embed_dropout, tokens, start, extra)

    def project(self, hidden: Tensor) -> Tensor:
        """The pre-softmax linear layer: (..., d_model) -> (..., V) logits."""
        hidden = self.norm(hidden)
        return F.linear(hidden, self.embed.weight) if self.output_proj is None else self.output_proj(hidden)

    def forward(self, tokens: Tensor, classes: Tensor | None = None, return_attention: bool = False,
                grid_start: int | Tensor = 0) -> Tensor | tuple[Tensor, list[Tensor]]:
        """(B, T) inputs (BOS + x[:-1], right-padded) -> (B, T, V) logits; with ``return_attention``
        also each layer's self-attention weights (B, H, T, T). ``grid_start``: the position in its
        sequence (BOS = 0) of each row's first input, int or (B,), read only by the voice and metre
        embeddings (absolute positions count from the window's start, as they always have)."""
        x, weights = self._inputs(tokens, classes, 0, grid_start), []
        for layer in self.layers:
            x, (w, _) = layer(x, need_weights=return_attention)
            weights.append(w)
        logits = self.project(x)
        return (logits, weights) if return_attention else logits

    # Incremental path (decoding) --------------------------------------------------------------
    def start_decoding(self, src: Tensor | None = None, beam_size: int = 1, capacity: int | None = None,
                       batch: int | None = None) -> DecoderState:
        """An empty cache of ``capacity`` positions for ``batch`` x ``beam_size`` rows; ``src``: the
        (B,) classes of a class-conditional model (then B is taken from it)."""
        cfg = self.config
        batch = src.size(0) if src is not None else batch
        if batch is None:
            raise ValueError("start_decoding needs the classes or the batch size")
        rows = batch * beam_size
        like = self.embed.weight
        caches = LayerCaches(len(self.layers), rows, cfg.n_heads, capacity or cfg.max_positions, cfg.d_k, cfg.d_v, like)
        cond = None if src is None else src.repeat_interleave(beam_size)
        return DecoderState(caches, [], None, beams=beam_size, cond=cond)

    def decode_step(self, tokens: Tensor, state: DecoderState) -> Tensor:
        """Feeds (N, T) new tokens at positions state.pos.. and returns their (N, T, V) logits."""
        start, self_mask = state.feed(tokens, self.config.pad_id)
        x = self._inputs(tokens, state.cond, start)
        for layer, cache in zip(self.layers, state.self_kv):
            x, _ = layer(x, cache=cache, pos=state.pos, self_mask=self_mask)
        state.pos += tokens.size(1)
        return self.project(x)

    def num_parameters(self) -> int:
        return sum(p.numel() for p in self.parameters())
