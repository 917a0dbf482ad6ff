import torch
from torch.profiler import ProfilerActivity, profile

from benchmarks.peers import bucketed_batches, model_config
from benchmarks.train_throughput import make_step

torch.set_num_threads(2)
cfg = model_config("tiny")
batches = bucketed_batches(40)[0]
lst = []
step = make_step("aiayn", cfg, lst, "bf16")[0]
lst[:] = batches[:10]; step(); step()
def prof(bs):
    lst[:] = bs
    with profile(activities=[ProfilerActivity.CPU]) as p:
        step()
    return {e.key: e.self_cpu_time_total / 1e3 for e in p.key_averages()}
new = prof(batches[10:20]); seen = prof(batches[10:20])
new2 = prof(batches[20:30]); seen2 = prof(batches[20:30])
tot = lambda d: sum(d.values())
print("total self ms new %.0f seen %.0f | new %.0f seen %.0f" % (tot(new), tot(seen), tot(new2), tot(seen2)))
diff = sorted(((new[k] + new2.get(k, 0) - seen.get(k, 0) - seen2.get(k, 0)) / 2, k) for k in set(new) | set(new2))
for d, k in diff[-10:][::-1]:
    print(f"{k:45} +{d:7.1f} ms   (seen {seen.get(k,0):.1f})")
