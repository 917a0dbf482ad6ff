#!/usr/bin/env bash
# The GPU checks of one lent-GPU session, in one call (about 8 minutes on an H200; the 2026-11-26 run's
# figures are in BENCHMARKS.md, "CUDA paths" and "Training on one GPU"):
#   1. checks.cuda_check: every CUDA path against the CPU in float64, FlexAttention included;
#   2. benchmarks.relative_attention on CUDA (FlexAttention's speed and memory against plain attention);
#   3. training throughput on the built-in corpus, one vocabulary for all: base in bf16 with the prefetching
#      thread and without, base in fp32 (target tokens/s: the median of the rates logged every 20 steps
#      after the first 100, which compile kernels for new batch shapes). Tiny is left out: its 1,536-token
#      batches leave a GPU idle (5,315 target tokens/s in bf16 on an H200, benchmarks/results/
#      gpu_train_throughput.json; an H100 run of 2026-11-23 logged ten times that in float32, a gap not
#      explained: docs/gpus.md);
#   4. the chorale model (voices preset, whole chorales) on CUDA: bf16 and float32 at its CPU batch (one
#      2,048-token window) and at 8 windows per batch. Needs music21 and the encoded chorales: carry them
#      and set AIAYN_CACHE (see BENCHMARKS.md, "Training on one GPU").
# STEPS="2 4" runs only those steps (default: all).
# Usage (repository root, python3 with CUDA PyTorch, sentencepiece, sacrebleu, safetensors, pyyaml):
#   OUT=/tmp/gpu bash benchmarks/gpu_session.sh       # results and logs under $OUT
set -u
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/gpu-session}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.get_device_name())"

STEPS=${STEPS:-1 2 3 4}
step() { [[ " $STEPS " == *" $1 "* ]]; }

step 1 && { echo "== 1. cuda_check"
timeout 240 python3 -m checks.cuda_check --results "$OUT" 2>&1 | tail -40
echo "cuda_check exit ${PIPESTATUS[0]}"; }

step 2 && { echo "== 2. relative attention on CUDA"
timeout 120 python3 -m benchmarks.relative_attention --device cuda --repeats 5 --lengths 1024 4096 16384 \
  --naive-cap-gib 40 --results "$OUT" 2>&1 | tail -30; }
train() {  # name, then aiayn train options
  local name=$1; shift
  timeout "${TRAIN_TIMEOUT:-100}" python3 -m aiayn train --device cuda --out "/tmp/gpu-$name" "$@" >"$OUT/train-$name.log" 2>&1
  python3 - "$name" "/tmp/gpu-$name/log.jsonl" <<'EOF' | tee -a "$OUT/train.txt"
import json, statistics, sys
name, path = sys.argv[1:]
try:
    rows = [json.loads(l) for l in open(path) if '"train"' in l]
except OSError:
    print(f"{name}: no log (see train-{name}.log)"); sys.exit()
rates = [r["tgt_tok_s"] for r in rows if r["step"] > 100]
print(f"{name}: steps {rows[-1]['step'] if rows else 0}, loss {rows[-1]['loss'] if rows else float('nan')}, target tok/s median "
      f"{statistics.median(rates) if rates else float('nan'):,.0f} over {len(rates)} log lines, "
      f"range {min(rates, default=0):,.0f}-{max(rates, default=0):,.0f}")
EOF
}
step 3 && { echo "== 3. training throughput"
BASE="--preset base --max-steps 300 --set train.log_every=20 --set train.valid_every=1000 --set train.valid_bleu_sentences=0"
train base-bf16-prefetch2 $BASE --bf16
VOCAB="--vocab /tmp/gpu-base-bf16-prefetch2/spm.model"
train base-bf16-prefetch0 $BASE $VOCAB --bf16 --set train.prefetch=0
train base-fp32-prefetch2 $BASE $VOCAB; }

step 4 && { echo "== 4. the chorale model on CUDA"
MUSIC="--task music --preset voices --max-steps 300 --set train.log_every=20 --set train.valid_every=1000"
train music-bf16-2k $MUSIC --bf16
train music-fp32-2k $MUSIC
train music-bf16-16k $MUSIC --bf16 --max-tokens 16384
train music-fp32-16k $MUSIC --max-tokens 16384; }

ls "$OUT"
