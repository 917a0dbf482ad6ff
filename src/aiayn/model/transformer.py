"""The encoder-decoder Transformer (paper §3, Figure 1).

Legend: B batch, S source length, T target length, V vocabulary, N decoding rows (B x beams).

``encode`` and ``decode`` are separate so decoding reuses the encoder output; ``start_decoding``
and ``decode_step`` are the incremental form used by greedy and beam search.
"""

from __future__ import annotations

from typing import NamedTuple

import torch.nn.functional as F
from torch import Tensor, nn

from .cache import DecoderState, LayerCaches
from .config import TransformerConfig
from .embeddings import TokenEmbedding, embed_inputs, positional_encoding
from .layers import DecoderLayer, Dropout, EncoderLayer, init_linear_weights
from .masks import padding_mask


class Encoded(NamedTuple):
    memory: Tensor  # (B, S, d_model): z_1..z_n
    src_mask: Tensor  # (B, 1, 1, S): real source tokens


class AttentionMaps(NamedTuple):
    """Attention weights per layer, each (B, H, queries, keys)."""

    encoder: list[Tensor]
    decoder_self: list[Tensor]
    cross: list[Tensor]


class Transformer(nn.Module):
    """§3: N encoder layers over the source, N decoder layers over the shifted target, tied softmax."""

    architecture = "transformer"
    config_class = TransformerConfig

    def __init__(self, config: TransformerConfig):
        super().__init__()
        cfg = self.config = config
        self.src_embed = TokenEmbedding(cfg.src_vocab_size, cfg.d_model, cfg.scale_embeddings)
        # §3.4: with one joint vocabulary, the two embeddings and the pre-softmax layer share weights.
        self.tgt_embed = (
            self.src_embed if cfg.share_embeddings else TokenEmbedding(cfg.tgt_vocab_size, cfg.d_model, cfg.scale_embeddings)
        )
        self.positions = positional_encoding(cfg)
        self.embed_dropout = Dropout(cfg.dropout)
        self.encoder_layers = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.n_encoder_layers))
        self.decoder_layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.n_decoder_layers))
        # Pre-norm leaves each stack's output un-normalised; post-norm (the paper) already ends in LayerNorm.
        self.encoder_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps) if cfg.norm_first else nn.Identity()
        self.decoder_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps) if cfg.norm_first else nn.Identity()
        self.output_proj = None if cfg.tie_output else nn.Linear(cfg.d_model, cfg.tgt_vocab_size, bias=False)
        init_linear_weights(self)

    # Building blocks -----------------------------------------------------------------------
    def _embed(self, embed: TokenEmbedding, tokens: Tensor, start: int | Tensor = 0) -> Tensor:
        return embed_inputs(embed, self.positions, self.embed_dropout, tokens, start)

    def project(self, hidden: Tensor) -> Tensor:
        """§3.4: the pre-softmax linear layer: (..., d_model) -> (..., V) logits."""
        if self.output_proj is None:
            return F.linear(hidden, self.tgt_embed.weight)
        return self.output_proj(hidden)  # a module call, so a quantised copy (int8 decoding) can stand in

    # Full-sequence path (training, scoring) ---------------------------------------------------
    def encode(self, src: Tensor, need_weights: bool = False) -> Encoded | tuple[Encoded, list[Tensor]]:
        """Encoder stack: (B, S) source ids -> memory (B, S, d_model) and its padding mask."""
        src_mask = padding_mask(src, self.config.pad_id)
        x, weights = self._embed(self.src_embed, src), []
        for layer in self.encoder_layers:
            x, w = layer(x, src_mask, need_weights)
            weights.append(w)
        encoded = Encoded(self.encoder_norm(x), src_mask)
        return (encoded, weights) if need_weights else encoded

    def decode(
        self, tgt_in: Tensor, encoded: Encoded, need_weights: bool = False
    ) -> Tensor | tuple[Tensor, list[Tensor], list[Tensor]]:
        """Decoder stack with teacher forcing: (B, T) shifted target ids -> (B, T, V) logits."""
        x, self_w, cross_w = self._embed(self.tgt_embed, tgt_in), [], []
        for layer in self.decoder_layers:
            x, (ws, wc) = layer(x, layer.cross_attn.project_kv(encoded.memory), encoded.src_mask, need_weights=need_weights)
            self_w.append(ws)
            cross_w.append(wc)
        logits = self.project(self.decoder_norm(x))
        return (logits, self_w, cross_w) if need_weights else logits

    def forward(
        self, src: Tensor, tgt_in: Tensor, return_attention: bool = False
    ) -> Tensor | tuple[Tensor, AttentionMaps]:
        """(B, S) source and (B, T) decoder input (BOS + target[:-1]) -> (B, T, V) logits.

        With ``return_attention`` the attention runs on the explicit math path and its weights
        come back too; the logits are the same either way.
        """
        if not return_attention:
            return self.decode(tgt_in, self.encode(src))
        encoded, enc_w = self.encode(src, need_weights=True)
        logits, self_w, cross_w = self.decode(tgt_in, encoded, need_weights=True)
        return logits, AttentionMaps(enc_w, self_w, cross_w)

    def attention_maps(self, src: Tensor, tgt_in: Tensor) -> AttentionMaps:
        """Every layer's attention weights of one forward pass (the kinds ``io.registry.capabilities`` lists)."""
        return self(src, tgt_in, return_attention=True)[1]

    # Incremental path (decoding) --------------------------------------------------------------
    def start_decoding(self, src: Tensor, beam_size: int = 1, capacity: int | None = None) -> DecoderState:
        """Encodes (B, S) sources once and prepares a state of B x beam_size rows with an empty
        self-attention cache of ``capacity`` positions and each layer's cross-attention K, V
        (once per sentence: its beams share them)."""
        cfg = self.config
        cross_kv, src_mask = self.encode_for_decoding(src)
        capacity = capacity or cfg.max_positions
        rows = src.size(0) * beam_size
        caches = LayerCaches(len(self.decoder_layers), rows, cfg.n_heads, capacity, cfg.d_k, cfg.d_v, cross_kv[0][0])
        return DecoderState(caches, cross_kv, src_mask, beams=beam_size)

    def encode_for_decoding(self, src: Tensor) -> tuple[list[tuple[Tensor, Tensor]], Tensor]:
        """What decoding needs of (B, S) sources: each decoder layer's cross-attention keys and values (B, H, S, D)
        and the sources' padding mask (B, 1, 1, S). ``compile_decoding`` replaces it with a compiled one."""
        encoded = self.encode(src)
        # once per source, and contiguous once: every step's Q Kᵀ and weights x V would otherwise copy the head views
        cross_kv = [tuple(t.contiguous() for t in layer.cross_attn.project_kv(encoded.memory))
                    for layer in self.decoder_layers]
        return cross_kv, encoded.src_mask

    def decode_step(self, tokens: Tensor, state: DecoderState) -> Tensor:
        """Feeds (N, T) new target tokens at positions state.pos.. and returns their (N, T, V) logits."""
        start, self_mask = state.feed(tokens, self.config.pad_id)
        x = self._embed(self.tgt_embed, tokens, start)
        for layer, cache, kv in zip(self.decoder_layers, state.self_kv, state.cross_kv):
            x, _ = layer(x, kv, state.src_mask, cache=cache, pos=state.pos, beams=state.beams, self_mask=self_mask)
        state.pos += tokens.size(1)
        return self.project(self.decoder_norm(x))

    def num_parameters(self) -> int:
        """Distinct trainable parameters (tied matrices counted once)."""
        return sum(p.numel() for p in self.parameters())
