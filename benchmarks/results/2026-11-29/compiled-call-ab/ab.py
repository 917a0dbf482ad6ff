"""The compiled bf16 decoding step's call, before and after bbd0e7c, in one process, interleaved call by call:
``patched`` enters Inductor's and Dynamo's config patches around every step (as before bbd0e7c), ``stance`` runs a
family already compiled under the fail_on_recompile stance alone (since bbd0e7c). Both call the same compiled
kernels, so their outputs must be equal (checked). One sentence at a time and 64 a batch, greedy and beam 4;
CTranslate2 int8 beside them. Run from the repository root:
    python benchmarks/results/2026-11-29/compiled-call-ab/ab.py > benchmarks/results/2026-11-29/compiled-call-ab/ab.json
"""
import json
import sys

import torch

sys.path.insert(0, ".")
from aiayn.model import compiled  # noqa: E402
from benchmarks.common import interleave, median, median_ratio, provenance  # noqa: E402
from benchmarks.decode_throughput import N_SENTENCES, OUT_LEN, aiayn_search, make_decoder, prepare  # noqa: E402

STANCE = compiled.CompiledDecodeStep.__call__


def patched(self, tokens, state):
    """The call before bbd0e7c: the config patches entered at every step (a family compiled by now)."""
    with self.inductor(compiled.INDUCTOR), self.dynamo(recompile_limit=compiled.RECOMPILES):
        return STANCE(self, tokens, state)


torch.set_num_threads(1)
prepare("tiny")
out = {**provenance(None), "repeats": 5, "runs": {}}
for batch in (1, N_SENTENCES):
    for beam in (1, 4):
        _, search = aiayn_search("tiny", beam, "aiayn_bf16_compiled", batch=batch)
        reference = search()  # compiles every family met
        ct2 = make_decoder("ct2_int8", "tiny", beam, 1, batch=batch)

        def side(call, search=search, reference=reference):
            def run():
                compiled.CompiledDecodeStep.__call__ = call
                outputs = search()
                assert outputs == reference, "the two calls must run the same kernels"
            return run

        times = interleave({"patched": side(patched), "stance": side(STANCE), "ct2_int8": ct2}, 5, 1)
        row = out["runs"][f"batch{batch}_beam{beam}"] = {
            k: {"seconds": v, "median_tokens_per_s": median([N_SENTENCES * OUT_LEN / t for t in v])} for k, v in times.items()}
        # speeds as paired ratios of times: > 1 means the first named is faster
        row["stance_over_patched"] = median_ratio(times["patched"], times["stance"])
        row["stance_over_ct2_int8"] = median_ratio(times["ct2_int8"], times["stance"])
compiled.CompiledDecodeStep.__call__ = STANCE
print(json.dumps(out, indent=2))
