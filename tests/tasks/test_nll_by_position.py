"""``nll_by_position`` (the music page's and the chorale experiment's NLL past the training length) against a
naive formulation: each token's NLL read from its own prefix alone, one forward pass per token, in float64."""

import torch

from aiayn import LanguageModel, LanguageModelConfig
from aiayn.tasks.language_model import nll_by_position

BOS = 1


def test_nll_by_position_equals_prefix_by_prefix_scoring():
    torch.manual_seed(0)
    config = dict(vocab_size=16, d_model=32, n_heads=4, d_ff=64, n_layers=2, dropout=0.0, max_positions=64,
                  attention="relative", positional="none", max_relative_distance=8, voice_embedding=4)
    model = LanguageModel(LanguageModelConfig.from_dict(config)).double().eval()
    sequences = [torch.randint(3, 16, (n,)).tolist() for n in (12, 7, 12)]
    nll, count = nll_by_position(model, sequences, BOS)
    naive, reach = torch.zeros(12, dtype=torch.float64), torch.zeros(12, dtype=torch.float64)
    with torch.no_grad():
        for seq in sequences:
            for t, token in enumerate(seq):
                prefix = torch.tensor([[BOS, *seq[:t]]])
                naive[t] -= model(prefix)[0, -1].log_softmax(-1)[token]
                reach[t] += 1
    torch.testing.assert_close(count, reach)
    torch.testing.assert_close(nll, naive)
    assert count.tolist()[6:8] == [3, 2]  # the 7-token sequence stops counting after its last position
