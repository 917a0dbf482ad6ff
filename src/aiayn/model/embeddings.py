"""Embeddings and positional encodings (paper §3.4 and §3.5).

Our sinusoid layout is the paper's, interleaved: even feature 2i holds sin, odd feature 2i+1
holds cos of the same frequency (fairseq and Marian use [sin | cos] halves instead).
"""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn


def sinusoidal_positions(n_positions: int, d_model: int) -> Tensor:
    """§3.5: PE(pos, 2i) = sin(pos / 10000^(2i/d_model)), PE(pos, 2i+1) = cos(same angle)."""
    pos = torch.arange(n_positions, dtype=torch.float64)[:, None]  # (P, 1)
    two_i = torch.arange(0, d_model, 2, dtype=torch.float64)  # (d_model/2,)
    angle = pos / torch.pow(10000.0, two_i / d_model)  # (P, d_model/2)
    pe = torch.zeros(n_positions, d_model, dtype=torch.float64)
    pe[:, 0::2] = torch.sin(angle)
    pe[:, 1::2] = torch.cos(angle[:, : d_model // 2])
    return pe.float()


class TokenEmbedding(nn.Module):
    """§3.4: learned embeddings of size d_model, multiplied by sqrt(d_model)."""

    def __init__(self, vocab_size: int, d_model: int, scale: bool = True):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(vocab_size, d_model))
        # N(0, d_model^-0.5): after the sqrt(d_model) scale the embeddings have unit variance.
        nn.init.normal_(self.weight, mean=0.0, std=d_model**-0.5)
        self.scale = math.sqrt(d_model) if scale else 1.0

    def forward(self, tokens: Tensor) -> Tensor:
        return nn.functional.embedding(tokens, self.weight) * self.scale


class PositionalEncoding(nn.Module):
    """§3.5: adds fixed sinusoids (or, Table 3 row E, learned position vectors) to the embeddings."""

    def __init__(self, d_model: int, max_positions: int, learned: bool = False):
        super().__init__()
        self.d_model, self.max_positions, self.learned = d_model, max_positions, learned
        if learned:
            self.table = nn.Parameter(torch.empty(max_positions, d_model))
            nn.init.normal_(self.table, mean=0.0, std=d_model**-0.5)
        else:
            # Not saved in checkpoints: a pure function of the shape, extended on demand.
            self.register_buffer("table", sinusoidal_positions(max_positions, d_model), persistent=False)

    def forward(self, x: Tensor, start: int | Tensor = 0) -> Tensor:
        """x: (B, T, d_model), holding positions start .. start + T - 1.

        ``start`` may be a (B,) tensor, one start per row (left-padded prompts: negative starts
        give the padding position 0; it is never attended to).
        """
        if torch.is_tensor(start):
            positions = (start[:, None] + torch.arange(x.size(1), device=x.device)).clamp(min=0)  # (B, T)
            self._extend(int(positions.max()) + 1, x.device)
            return x + self.table[positions].to(x.dtype)
        end = start + x.size(1)
        self._extend(end, x.device)
        return x + self.table[start:end].to(x.dtype)

    def _extend(self, end: int, device) -> None:
        if end <= self.table.size(0):
            return
        if self.learned:
            raise ValueError(
                f"position {end - 1} is past the {self.max_positions} learned positions; "
                "shorten the input or train with a larger max_positions"
            )
        # Sinusoids extend to any length (§3.5): grow the table instead of failing.
        self.table = sinusoidal_positions(max(end, 2 * self.table.size(0)), self.d_model).to(device)


def positional_encoding(cfg) -> PositionalEncoding | None:
    """The config's positions: sinusoids, learned vectors, or none (relative attention brings its own)."""
    if cfg.positional == "none":
        return None
    return PositionalEncoding(cfg.d_model, cfg.max_positions, learned=cfg.positional == "learned")


def embed_inputs(embed: TokenEmbedding, positions: PositionalEncoding | None, dropout: nn.Module, tokens: Tensor,
                 start: int | Tensor = 0, extra: Tensor | None = None) -> Tensor:
    """§3.4-3.5: Dropout(Embedding(x) * sqrt(d_model) + PE (+ ``extra``, e.g. a class embedding))."""
    x = embed(tokens)
    if positions is not None:
        x = positions(x, start)
    if extra is not None:
        x = x + extra
    return dropout(x)


class GridEmbedding(nn.Module):
    """Learned embeddings of a token's place in a periodic layout: its voice (position mod ``voices``)
    and its step within a bar (position // ``voices`` mod ``steps``); either may be 0 (left out).

    Music: S A T B per sixteenth (voices 4) and 16 sixteenths per 4/4 bar (steps 16). Relative attention
    is blind to absolute positions, so without this a model that slips one token reads every later voice
    one place off. ``std``: the initial scale, that of the (scaled) token embeddings.
    """

    def __init__(self, d_model: int, voices: int, steps: int, std: float = 1.0):
        super().__init__()
        self.voices, self.steps = voices, steps
        self.voice = nn.Embedding(voices, d_model) if voices else None
        self.step = nn.Embedding(steps, d_model) if steps else None
        for table in (self.voice, self.step):
            if table is not None:
                nn.init.normal_(table.weight, mean=0.0, std=std)

    def forward(self, length: int, start: int | Tensor = 0, device=None) -> Tensor:
        """(1 or B, length, d_model): the embeddings of positions start .. start + length - 1.

        ``start`` may be a (B,) tensor (left-padded prompts: negative positions are padding, read as 0).
        """
        steps = torch.arange(length, device=device)
        positions = (start[:, None] + steps).clamp(min=0) if torch.is_tensor(start) else (start + steps)[None]
        out = 0
        if self.voice is not None:
            out = out + self.voice(positions % self.voices)
        if self.step is not None:
            out = out + self.step(positions // max(self.voices, 1) % self.steps)
        return out
