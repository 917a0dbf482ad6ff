"""The self-attention variants by name (issue 43): ``LayerConfig.attention`` picks one, ``layers._attention``
builds it. A new variant is its module plus one entry in the tuple below.

Each class carries ``NAME`` (the config's value), ``from_config(cfg, causal)`` (the module of one
self-attention layer) and ``check_config(cfg)`` (a ValueError for fields it cannot use). ``cfg`` is a
``model.config.LayerConfig``, not imported here: the config imports this registry.
"""

from __future__ import annotations

from .local import LocalAttention
from .relative import RelativePositions

VARIANTS = {variant.NAME: variant for variant in (RelativePositions, LocalAttention)}
