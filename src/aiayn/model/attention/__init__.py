"""Attention (paper §3.2): the core with its kernels, multi-head attention, and the variants.

One module per idea: ``core`` (Eq. 1 and its kernels), ``mha`` (§3.2.2 and the variant slot),
``relative`` (Shaw et al. 2018; Huang et al. 2018's skewing), ``local`` (Parmar et al. 2018's 1D
local attention); and the tiled path of the variants (issue 21): ``tiles`` (the plug-in a variant
implements: its score term and mask per query block x key block tile), ``blockwise`` (the
block-by-block kernel with its recomputing backward, O(L) memory on the CPU), ``flex`` (the same
tiles through FlexAttention on CUDA) and ``dispatch`` (which path a call takes). ``variants``
registers the variants by the name ``LayerConfig.attention`` gives them.
"""

from .core import ATTENTION_BACKENDS, ATTENTION_KERNELS, attention_weights, math_attention, sdpa_attention
from .local import LocalAttention
from .mha import MultiHeadAttention
from .relative import RelativePositions, skew
from .variants import VARIANTS

__all__ = ["ATTENTION_BACKENDS", "ATTENTION_KERNELS", "LocalAttention", "MultiHeadAttention", "RelativePositions",
           "VARIANTS", "attention_weights", "math_attention", "sdpa_attention", "skew"]
