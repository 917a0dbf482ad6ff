#!/usr/bin/env bash
# A/B on the lent GPU's AMX host: this commit (new) against 5891c73 (old: no allocator setting, prefix-view
# bf16 decoding), interleaved by process, two threads each, nothing else running.
set -u
export PYTHONUNBUFFERED=1
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
lscpu | grep -E "Model name"; grep -o -w -m1 amx_bf16 /proc/cpuinfo
new() { (PYTHONPATH=src:/tmp/site timeout "$1" python3 -m "${@:2}" --results "$OUT/new" 2>&1 | tail -"${TAIL:-9}"); }
old() { (cd .whl/old && PYTHONPATH=src:/tmp/site timeout "$1" python3 -m "${@:2}" --results "$OUT/old" 2>&1 | tail -"${TAIL:-9}"); }
DEC="benchmarks.decode_throughput --size tiny --systems aiayn_bf16 ct2_int8 --beams 1 4 --no-memory --threads 2 --repeats 5"
TRN="benchmarks.train_precision --size tiny --batch fixed --threads 2 --entries aiayn:fp32 aiayn:bf16 --steps 5"
el "== decode, new"; new 100 $DEC
el "== decode, old"; old 100 $DEC
el "== train tiny, new"; TAIL=4 new 60 $TRN
el "== train tiny, old"; TAIL=4 old 60 $TRN
el done
