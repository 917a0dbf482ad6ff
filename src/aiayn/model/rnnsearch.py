"""RNNsearch (Bahdanau, Cho & Bengio 2015), the additive-attention RNN that the Transformer replaced,
and its no-attention control RNNencdec (``attention=False``).

Legend: B batch, S source length, T target length, V target vocabulary, N decoding rows (B x beams),
m embedding width, n GRU width, l maxout width. Positions i (target) and j (source) count from 1
in the docstrings, as in the paper.

The equations (the paper's appendix A; its biases, omitted there "for readability", are kept):

  encoder   →h_j = GRU→(E_x x_j, →h_(j−1)),  ←h_j = GRU←(E_x x_j, ←h_(j+1)),  h_j = [→h_j; ←h_j]
  start     s_0 = tanh(W_s ←h_1)
  attention e_ij = v_aᵀ tanh(W_a s_(i−1) + U_a h_j),  α_ij = softmax_j(e_ij) over real positions,
            c_i = Σ_j α_ij h_j
  state     s_i = GRU([E y_(i−1); c_i], s_(i−1))
  output    t̃_i = U_o s_(i−1) + V_o E y_(i−1) + C_o c_i   (2l units),
            t_i = [max(t̃_(i,2k−1), t̃_(i,2k))]_(k=1..l),  logits_i = W_o t_i

Which state feeds what: the attention query and the deep output both read s_(i−1), the state
*before* y_(i−1) is consumed, exactly as appendix A.2.2 writes t̃_i (the main text's eq. 4 writes
g(y_(i−1), s_i, c_i) instead; the appendix is followed). s_i is made from s_(i−1), y_(i−1) and c_i
and first used at step i+1. So y_i is predicted from s_(i−1), E y_(i−1) and c_i.

The GRUs are PyTorch's (cuDNN's form): the reset gate multiplies U s after the product
(r ∘ (U s + b)) where the paper's gated unit has U (r ∘ s); the update gate's two roles are swapped,
a relabelling. RNNencdec keeps the same bidirectional encoder and s_0, so that attention is the
only difference; its context is the fixed summary c = [→h_S; ←h_1], each direction's state after
reading the whole sentence (Cho et al. 2014's c is the last encoder state; the paper's RNNencdec
has a one-way encoder), fed to every decoder step and the output in place of c_i.

Padding (sources and targets are right-padded with ``pad_id``): the forward GRU reaches the
padding only after the real tokens; the backward GRU reads each sentence reversed within its own
length (a per-row gather), so it starts at the sentence's real end and ←h_1 is its state after
the whole sentence. Attention gives padding weights of exactly zero. A pad token fed to the
decoder (a left-padded prompt) leaves the state unchanged.

Decoding follows ``aiayn.model.cache``'s protocol (``start_decoding``, ``decode_step``,
``state.reorder``); the decoder's GRU state is the cache that beams reorder, the source side is
kept once per sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import torch
from torch import Tensor, nn

from .config import RNNSearchConfig
from .transformer import AttentionMaps


class EncodedSource(NamedTuple):
    """The encoder's output, one row per sentence."""

    annotations: Tensor  # (B, S, 2n): h_j = [→h_j; ←h_j]
    src_mask: Tensor  # (B, S): real source tokens
    init_state: Tensor  # (B, n): s_0 = tanh(W_s ←h_1)
    keys: Tensor | None  # (B, S, n): U_a h_j, computed once (RNNsearch); None for RNNencdec
    context: Tensor | None  # (B, 2n): RNNencdec's fixed c = [→h_S; ←h_1]; None for RNNsearch


class AdditiveAttention(nn.Module):
    """e_ij = v_aᵀ tanh(W_a s_(i−1) + U_a h_j + b), α = softmax over real positions, c_i = Σ_j α_ij h_j."""

    def __init__(self, hidden: int, annotation: int):
        super().__init__()
        self.query = nn.Linear(hidden, hidden, bias=False)  # W_a
        self.key = nn.Linear(annotation, hidden)  # U_a (and the score's one bias)
        self.score = nn.Linear(hidden, 1, bias=False)  # v_a

    def forward(self, state: Tensor, keys: Tensor, annotations: Tensor, src_mask: Tensor, beams: int = 1,
                ) -> tuple[Tensor, Tensor]:
        """(N, n) states s_(i−1) of N = B x beams rows (a sentence's beams consecutive), per sentence
        (B, S, n) keys, (B, S, 2n) annotations and (B, S) mask -> contexts (N, 2n), weights α (N, S)."""
        b, s, _ = keys.shape
        query = self.query(state).view(b, beams, 1, -1)  # (B, K, 1, n)
        energy = self.score(torch.tanh(query + keys[:, None])).squeeze(-1)  # (B, K, S)
        # The most negative finite number, not −inf: exactly zero weight on padding, no NaN anywhere.
        energy = energy.masked_fill(~src_mask[:, None], torch.finfo(energy.dtype).min)
        weights = energy.softmax(dim=-1)  # (B, K, S)
        context = torch.bmm(weights, annotations.to(weights.dtype))  # (B, K, 2n)
        return context.view(b * beams, -1), weights.view(b * beams, s)


@dataclass
class RNNDecoderState:
    """Decoding state of an RNN decoder: the GRU state of each row, and the encoded sources.

    Rows come in groups of ``beams`` consecutive rows per sentence; the source side is kept once
    per sentence. ``hidden`` is s_(i−1): the state before the next token is fed.
    """

    hidden: Tensor  # (N, n)
    encoded: EncodedSource  # B rows
    beams: int = 1
    pos: int = 0  # tokens fed so far

    @property
    def n_rows(self) -> int:
        return self.hidden.size(0)

    def reorder(self, index: Tensor) -> None:
        """Row i of the new state is row ``index[i]`` of the old one; each group of ``beams`` new
        rows must come from one sentence (beams reordered within it, finished sentences dropped)."""
        dropped = index.numel() != self.n_rows
        self.hidden = self.hidden[index]
        if dropped:
            sentences = index.view(-1, self.beams)[:, 0] // self.beams
            self.encoded = EncodedSource(*(None if x is None else x[sentences] for x in self.encoded))


class RNNSearch(nn.Module):
    """Bidirectional GRU encoder, GRU decoder with additive attention (or a fixed context:
    RNNencdec), deep output with maxout. See the module docstring for the equations."""

    architecture = "rnnsearch"
    config_class = RNNSearchConfig

    def __init__(self, config: RNNSearchConfig):
        super().__init__()
        cfg = self.config = config
        m, n, l = cfg.embed_dim, cfg.hidden, cfg.maxout_dim
        self.src_embed = nn.Embedding(cfg.src_vocab_size, m)  # E_x
        self.tgt_embed = self.src_embed if cfg.share_embeddings else nn.Embedding(cfg.tgt_vocab_size, m)  # E
        self.dropout = nn.Dropout(cfg.dropout)
        self.encoder_forward = nn.GRU(m, n, batch_first=True)  # →h
        self.encoder_backward = nn.GRU(m, n, batch_first=True)  # ←h
        self.init_state = nn.Linear(n, n)  # W_s
        self.attention = AdditiveAttention(n, 2 * n) if cfg.attention else None
        self.decoder = nn.GRUCell(m + 2 * n, n)  # input [E y_(i−1); c_i]
        self.readout_state = nn.Linear(n, 2 * l)  # U_o (and t̃'s bias)
        self.readout_embed = nn.Linear(m, 2 * l, bias=False)  # V_o
        self.readout_context = nn.Linear(2 * n, 2 * l, bias=False)  # C_o
        self.output = nn.Linear(l, cfg.tgt_vocab_size)  # W_o
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Appendix B.1: recurrent matrices random orthogonal (each gate's block); W_a and U_a
        N(0, 0.001²); v_a and every bias zero; every other matrix (embeddings included) N(0, 0.01²)."""
        n = self.config.hidden
        for name, p in self.named_parameters():
            if "bias" in name or name == "attention.score.weight":
                nn.init.zeros_(p)
            elif "weight_hh" in name:
                for block in p.data.split(n, dim=0):
                    nn.init.orthogonal_(block)
            elif name in ("attention.query.weight", "attention.key.weight"):
                nn.init.normal_(p, 0.0, 0.001)
            else:
                nn.init.normal_(p, 0.0, 0.01)

    # Building blocks -----------------------------------------------------------------------
    def encode(self, src: Tensor) -> EncodedSource:
        """(B, S) right-padded source ids -> annotations, mask, s_0 and the attention keys (or c)."""
        cfg = self.config
        src_mask = src != cfg.pad_id
        lengths = src_mask.sum(dim=1)  # (B,)
        x = self.dropout(self.src_embed(src))  # (B, S, m)
        forward_states, _ = self.encoder_forward(x)
        order = _reverse_within(lengths, src.size(1))  # each sentence backwards, its padding after it
        backward_states = _take(self.encoder_backward(_take(x, order))[0], order)  # the same gather undoes it
        annotations = torch.cat([forward_states, backward_states], dim=-1)  # (B, S, 2n)
        init_state = torch.tanh(self.init_state(backward_states[:, 0]))  # s_0 = tanh(W_s ←h_1)
        if self.attention is not None:
            return EncodedSource(annotations, src_mask, init_state, self.attention.key(annotations), None)
        last = forward_states[torch.arange(src.size(0), device=src.device), (lengths - 1).clamp(min=0)]
        return EncodedSource(annotations, src_mask, init_state, None, torch.cat([last, backward_states[:, 0]], -1))

    def _context(self, state: Tensor, encoded: EncodedSource, beams: int = 1) -> tuple[Tensor, Tensor | None]:
        """c_i (N, 2n) and α (N, S) for states s_(i−1) (N, n); RNNencdec: its fixed c, no α."""
        if self.attention is None:
            return encoded.context.repeat_interleave(beams, dim=0), None
        return self.attention(state, encoded.keys, encoded.annotations, encoded.src_mask, beams)

    def _update(self, embedded: Tensor, context: Tensor, state: Tensor, is_pad: Tensor) -> Tensor:
        """s_i = GRU([E y_(i−1); c_i], s_(i−1)); rows whose y_(i−1) is padding keep s_(i−1)."""
        new = self.decoder(torch.cat([embedded, context], dim=-1), state)
        return torch.where(is_pad[:, None], state, new.to(state.dtype))

    def readout(self, state: Tensor, embedded: Tensor, context: Tensor) -> Tensor:
        """Deep output: (..., n) s_(i−1), (..., m) E y_(i−1), (..., 2n) c_i -> (..., V) logits."""
        t_tilde = self.readout_state(state) + self.readout_embed(embedded) + self.readout_context(context)
        t = t_tilde.unflatten(-1, (self.config.maxout_dim, 2)).amax(dim=-1)  # maxout over unit pairs
        return self.output(self.dropout(t))

    # Full-sequence path (training, scoring) ---------------------------------------------------
    def forward(self, src: Tensor, tgt_in: Tensor, return_attention: bool = False,
                ) -> Tensor | tuple[Tensor, Tensor | None]:
        """(B, S) source and (B, T) decoder input (BOS + target[:-1]) -> (B, T, V) logits.

        With ``return_attention`` also α (B, T, S), the weights of each target position over the
        source (rows sum to one over real tokens, zero on padding); None for RNNencdec.
        """
        encoded = self.encode(src)
        embedded = self.dropout(self.tgt_embed(tgt_in))  # (B, T, m)
        is_pad = tgt_in == self.config.pad_id
        state, states, contexts, weights = encoded.init_state, [], [], []
        steps = tgt_in.size(1)
        for i in range(steps):
            context, alpha = self._context(state, encoded)
            states.append(state)
            contexts.append(context)
            weights.append(alpha)
            if i + 1 < steps:  # the last s_i would feed only a step after the input's end
                state = self._update(embedded[:, i], context, state, is_pad[:, i])
        logits = self.readout(torch.stack(states, 1), embedded, torch.stack(contexts, 1))
        if not return_attention:
            return logits
        return logits, (None if self.attention is None else torch.stack(weights, 1))

    def attention_maps(self, src: Tensor, tgt_in: Tensor) -> AttentionMaps:
        """The additive attention α as the Transformer's maps: one cross-attention layer of one head,
        (B, 1, T, S); none for RNNencdec."""
        _, alpha = self(src, tgt_in, return_attention=True)
        return AttentionMaps([], [], [] if alpha is None else [alpha[:, None]])

    # Incremental path (decoding) --------------------------------------------------------------
    def start_decoding(self, src: Tensor, beam_size: int = 1, capacity: int | None = None) -> RNNDecoderState:
        """Encodes (B, S) sources once; the state of B x beam_size rows starts at s_0. ``capacity``
        is accepted for the protocol's sake: a recurrent state has no length to preallocate."""
        encoded = self.encode(src)
        return RNNDecoderState(encoded.init_state.repeat_interleave(beam_size, dim=0), encoded, beams=beam_size)

    def decode_step(self, tokens: Tensor, state: RNNDecoderState) -> Tensor:
        """Feeds (N, T) new target tokens and returns their (N, T, V) logits (of the tokens after them)."""
        embedded = self.dropout(self.tgt_embed(tokens))
        is_pad, logits = tokens == self.config.pad_id, []
        for t in range(tokens.size(1)):
            context, _ = self._context(state.hidden, state.encoded, state.beams)
            logits.append(self.readout(state.hidden, embedded[:, t], context))
            state.hidden = self._update(embedded[:, t], context, state.hidden, is_pad[:, t])
        state.pos += tokens.size(1)
        return torch.stack(logits, 1)

    def num_parameters(self) -> int:
        """Distinct trainable parameters (a shared embedding counted once)."""
        return sum(p.numel() for p in self.parameters())


def _reverse_within(lengths: Tensor, width: int) -> Tensor:
    """(B, width) index: row b's first lengths[b] positions reversed, the rest in place (its own inverse)."""
    pos = torch.arange(width, device=lengths.device)[None, :]
    return torch.where(pos < lengths[:, None], lengths[:, None] - 1 - pos, pos)


def _take(x: Tensor, index: Tensor) -> Tensor:
    """x (B, S, D) gathered along S by index (B, S)."""
    return x.gather(1, index[..., None].expand(-1, -1, x.size(-1)))
