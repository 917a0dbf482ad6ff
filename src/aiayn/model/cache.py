"""Decoder state for incremental decoding: a key/value cache per layer (paper §3.2.3's decoder,
one token at a time) and the encoder-decoder keys/values, computed once per source.

Legend: N rows (sentences x beams), H heads, L cache capacity, S source length, D head width, P prompt length.

The decoding protocol (driven by the searches, one layer up): ``model.start_decoding(src, beam_size,
capacity) -> state``, then ``model.decode_step(tokens (N, T), state) -> logits (N, T, V)`` as often
as needed, with ``state.reorder(index)`` between steps. The first step's tokens are the prompt:
BOS, or BOS and a primer; prompts of different lengths are left-padded with the pad id.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor


class KVCache:
    """Self-attention keys and values of the positions decoded so far, preallocated to capacity L."""

    def __init__(self, n_rows: int, n_heads: int, capacity: int, d_k: int, d_v: int, like: Tensor):
        self.k = like.new_zeros(n_rows, n_heads, capacity, d_k)
        self.v = like.new_zeros(n_rows, n_heads, capacity, d_v)
        self._spare: tuple[Tensor, Tensor] | None = None  # reorder's destination, reused while rows stay

    @classmethod
    def over(cls, k: Tensor, v: Tensor) -> KVCache:
        """A cache whose keys and values are the given (N, H, L, D) buffers (``LayerCaches``' views)."""
        cache = cls.__new__(cls)
        cache.k, cache.v, cache._spare = k, v, None
        return cache

    @property
    def capacity(self) -> int:
        return self.k.size(2)

    def update(self, pos: int, k: Tensor, v: Tensor, mask: Tensor | None = None, whole: bool = False,
               ) -> tuple[Tensor, Tensor, Tensor | None]:
        """Writes (N, H, T, D) at positions pos..pos+T-1; returns the keys and values of 0..pos+T-1 and
        ``mask`` ((N, 1, 1, pos+T) real keys, or None).

        With ``whole`` (one query, plain attention) on a bfloat16 cache on the CPU: the whole buffer, and
        the mask extended with False over the columns not yet written. A prefix view of the buffer costs a
        copy of K and V in every bf16 product there (oneDNN takes dense batches only); the whole buffer
        none, and its masked columns get weight 0 (they hold finite values: zeros or earlier keys)."""
        end = pos + k.size(2)
        if end > self.capacity:
            raise ValueError(f"KV cache holds {self.capacity} positions; position {end - 1} does not fit")
        self.k[:, :, pos:end] = k
        self.v[:, :, pos:end] = v
        if not (whole and self.k.dtype == torch.bfloat16 and self.k.device.type == "cpu") or end == self.capacity:
            return self.k[:, :, :end], self.v[:, :, :end], mask
        if mask is None:
            mask = torch.ones(1, 1, 1, end, dtype=torch.bool, device=self.k.device)
        return self.k, self.v, F.pad(mask, (0, self.capacity - end), value=False)

    def reorder(self, index: Tensor, length: int) -> None:
        """Keeps rows ``index`` (beam reordering or dropping finished sentences); copies only
        the ``length`` positions written so far."""
        rows = index.numel()
        if self.k.requires_grad:  # autograd records no out= gathers; decoding itself runs without grad
            self.k, self.v, self._spare = self.k[index], self.v[index], None
            return
        if self._spare is not None and self._spare[0].size(0) == rows:
            new = self._spare
        else:
            # zeros, not empty: unwritten columns must be finite where ``update`` hands out the whole buffer
            new = (self.k.new_zeros(rows, *self.k.shape[1:]), self.v.new_zeros(rows, *self.v.shape[1:]))
        # One gather straight into the other buffer, then swap: half the memory traffic of
        # gathering into a temporary and copying it back, and beam search does this every step.
        for old_buf, new_buf in zip((self.k, self.v), new):
            torch.index_select(old_buf[:, :, :length], 0, index, out=new_buf[:, :, :length])
        self._spare = (self.k, self.v) if rows == self.k.size(0) else None
        self.k, self.v = new


class LayerCaches(list):
    """The ``KVCache`` of each of ``n_layers`` layers, their keys and values views of two buffers (layers, N, H, L, D):
    beam search's reordering gathers each buffer once for all layers, not each layer's keys and values apart (one
    sentence at a time the calls, not the bytes, are the cost: 2 instead of 2 x layers)."""

    def __init__(self, n_layers: int, n_rows: int, n_heads: int, capacity: int, d_k: int, d_v: int, like: Tensor):
        self.k = like.new_zeros(n_layers, n_rows, n_heads, capacity, d_k)
        self.v = like.new_zeros(n_layers, n_rows, n_heads, capacity, d_v)
        self._spare: tuple[Tensor, Tensor] | None = None
        # with ``follow``: (N, L) the buffers' row that holds column j of row n; None: row n itself
        self.lineage: Tensor | None = None
        self._own: Tensor | None = None  # (N,) each row's own index, while followed
        super().__init__(KVCache.over(self.k[i], self.v[i]) for i in range(n_layers))

    def follow(self) -> Tensor:
        """From now on beam search's reordering copies no keys or values: it reorders ``lineage`` (N, L), which
        says where each row's columns lie in the buffers (a beam's past lies in its ancestors' rows; a step
        writes its column into the row's own), and the compiled step reads through it. ``settle`` copies them
        into place for a step that reads the buffers directly."""
        if self.lineage is None:
            n, capacity = self.k.size(1), self.k.size(3)
            self._own = torch.arange(n, device=self.k.device)
            self.lineage = self._own[:, None].expand(n, capacity).contiguous()
        return self.lineage

    def settle(self, length: int) -> None:
        """Row n's first ``length`` columns copied into row n (undoes ``follow``)."""
        if self.lineage is not None:
            lineage, self.lineage = self.lineage, None
            self._gather(lineage, length)

    def _bind(self) -> None:
        for i, cache in enumerate(self):  # select, not unbind: autograd lets a select view be written in place
            cache.k, cache.v = self.k[i], self.v[i]

    def reorder(self, index: Tensor, length: int) -> None:
        """``KVCache.reorder`` of every layer: keeps rows ``index``, copying the ``length`` positions written."""
        # with gradients (a write into a layer's view makes the buffer require them, for good), each cache its own
        # way: autograd records no out= gathers
        if self.k.requires_grad:
            for cache in self:
                cache.reorder(index, length)
            return
        if self.lineage is not None:
            lineage = self.lineage[index]
            if index.numel() == self.k.size(1):
                if length < lineage.size(1):  # the next step writes column ``length`` into the row's own
                    lineage[:, length] = self._own  # (later columns: set as the steps come to them)
                self.lineage = lineage
            else:  # sentences leave: the rows that stay copied into place, as without ``follow``
                self.lineage = None
                self._gather(lineage, length)
            return
        rows = index.numel()
        if self._spare is not None and self._spare[0].size(1) == rows:
            new = self._spare
        else:  # zeros, not empty, as KVCache's: unwritten columns must be finite
            new = (self.k.new_zeros(self.k.size(0), rows, *self.k.shape[2:]),
                   self.v.new_zeros(self.v.size(0), rows, *self.v.shape[2:]))
        for old_buf, new_buf in zip((self.k, self.v), new):  # straight into the other buffer, then swap
            torch.index_select(old_buf[:, :, :, :length], 1, index, out=new_buf[:, :, :, :length])
        self._spare = (self.k, self.v) if rows == self.k.size(1) else None
        self.k, self.v = new
        self._bind()

    def _gather(self, lineage: Tensor, length: int) -> None:
        """New buffers whose row n holds, in each column j < ``length``, row ``lineage[n, j]``'s."""
        rows, columns = lineage[:, :length], torch.arange(length, device=lineage.device)
        new = []
        for buf in (self.k, self.v):
            out = buf.new_zeros(buf.size(0), lineage.size(0), *buf.shape[2:])  # zeros: as ``reorder``'s
            out[:, :, :, :length] = buf[:, rows, :, columns].permute(2, 0, 3, 1, 4)  # from (N, length, layers, H, D)
            new.append(out)
        self.k, self.v = new
        self._spare = None
        self._bind()


@dataclass
class DecoderState:
    """Everything a decoding step needs besides the new tokens.

    Rows come in groups of ``beams`` consecutive rows per sentence (its beams). The encoder side
    is kept once per sentence: the beams' queries attend to it together. A decoder-only model has
    no encoder side (``cross_kv`` empty, ``src_mask`` None).
    """

    self_kv: LayerCaches  # one KVCache per decoder layer, N rows, reordered together
    cross_kv: list[tuple[Tensor, Tensor]]  # one (K, V) per decoder layer: (B, H, S, D), one row per sentence
    src_mask: Tensor | None  # (B, 1, 1, S)
    beams: int = 1  # rows per sentence
    pos: int = 0  # positions already decoded (cache columns written)
    cond: Tensor | None = None  # (N,) class per row, for class-conditional decoder-only models
    offset: Tensor | None = None  # (N,) left padding of each row's prompt; None: no padding
    key_mask: Tensor | None = None  # (N, L) cache columns that hold real tokens; None: all do

    @property
    def n_rows(self) -> int:
        return self.self_kv[0].k.size(0)

    def feed(self, tokens: Tensor, pad_id: int) -> tuple[int | Tensor, Tensor | None]:
        """Before ``tokens`` (N, T) are decoded: their positions' start (per row if the prompt was
        left-padded) and the self-attention key mask (N, 1, 1, pos+T) or None."""
        t = tokens.size(1)
        if self.pos == 0:
            pads = tokens == pad_id
            if pads.any():  # left-padded prompts: real positions start after the padding
                self.offset = pads.sum(dim=1)
                self.key_mask = torch.ones(tokens.size(0), self.self_kv[0].capacity, dtype=torch.bool,
                                           device=tokens.device)
                self.key_mask[:, :t] = ~pads
        if self.offset is None:
            return self.pos, None
        return self.pos - self.offset, self.key_mask[:, None, None, : self.pos + t]

    def reorder(self, index: Tensor) -> None:
        """Row i of the new state is row ``index[i]`` of the old one; each group of ``beams`` new
        rows must come from one sentence (beams reordered within it, finished sentences dropped)."""
        dropped = index.numel() != self.n_rows
        self.self_kv.reorder(index, self.pos)
        self.cond, self.offset, self.key_mask = (None if x is None else x[index]
                                                 for x in (self.cond, self.offset, self.key_mask))
        if dropped and self.src_mask is not None:
            sentences = index.view(-1, self.beams)[:, 0] // self.beams
            self.cross_kv = [(k[sentences], v[sentences]) for k, v in self.cross_kv]
            self.src_mask = self.src_mask[sentences]
