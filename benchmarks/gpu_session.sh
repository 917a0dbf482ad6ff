#!/usr/bin/env bash
# The GPU checks of one lent-GPU session, in one call (about 8 minutes on an H200; the 2026-11-26 and 2026-11-29
# runs' figures are in BENCHMARKS.md, "CUDA paths", "cuDNN attention and changing shapes" and "Training on one GPU"):
#   1. checks.cuda_check: every CUDA path against the CPU in float64, FlexAttention included;
#   2. benchmarks.relative_attention on CUDA (FlexAttention's speed and memory against plain attention);
#   7. (run after 1) benchmarks.sdpa_shapes: what a new shape costs SDPA's CUDA kernels, with cuDNN and without;
#   3. training throughput of tiny on the built-in corpus under the precision policy of `--precision` (bf16: a
#      bf16 working copy of the model, float32 master weights), bf16 then fp32 with the same vocabulary (target
#      tokens/s: the median of the rates logged every 20 steps after the first 100, which compile kernels for
#      new batch shapes);
#   4. the chorale model (voices preset, whole chorales) on CUDA: bf16 and float32 at its CPU batch (one
#      2,048-token window) and at 8 windows per batch. Needs music21 and the encoded chorales: carry them
#      and set AIAYN_CACHE (see BENCHMARKS.md, "Training on one GPU");
#   5. decoding on CUDA: `aiayn evaluate` of a trained translation model (MODEL=run folder, carried) on the
#      built-in test split, float32 beam 4, bfloat16 beam 4 and bfloat16 greedy, each timed; the hypotheses are
#      kept under $OUT/hyps for the share of identical outputs (DECODES: which of them; default all four);
#   6. base's training throughput as in 3, bf16 then fp32: skipped when less than BASE_NEEDS seconds (default
#      200) are left of SESSION_S (default 520) since the script started.
# STEPS="2 4" runs only those steps (default: all).
# Usage (repository root, python3 with CUDA PyTorch, sentencepiece, sacrebleu, safetensors, pyyaml):
#   OUT=/tmp/gpu bash benchmarks/gpu_session.sh       # results and logs under $OUT
set -u
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/gpu-session}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, torch.cuda.get_device_name())"

STEPS=${STEPS:-1 7 2 3 4 6}
step() { [[ " $STEPS " == *" $1 "* ]]; }

step 1 && { echo "== 1. cuda_check"
timeout 180 python3 -m checks.cuda_check --results "$OUT" 2>&1 | tail -40
echo "cuda_check exit ${PIPESTATUS[0]}"; }

step 7 && { echo "== 7. SDPA at new shapes"
timeout 90 python3 -m benchmarks.sdpa_shapes --results "$OUT" 2>&1 | tail -8; }

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
step 3 && { echo "== 3. training throughput, tiny"
TINY="--preset tiny --max-steps 400 --set train.log_every=20 --set train.valid_every=10000 --set train.valid_bleu_sentences=0"
TRAIN_TIMEOUT=${TINY_TIMEOUT:-60} train tiny-bf16 $TINY --precision bf16
TRAIN_TIMEOUT=${TINY_TIMEOUT:-60} train tiny-fp32 $TINY --vocab /tmp/gpu-tiny-bf16/spm.model --precision fp32; }

step 4 && { echo "== 4. the chorale model on CUDA"
MUSIC="--task music --preset voices --max-steps 300 --set train.log_every=20 --set train.valid_every=1000"
train music-bf16-2k $MUSIC --bf16
train music-fp32-2k $MUSIC
train music-bf16-16k $MUSIC --bf16 --max-tokens 16384
train music-fp32-16k $MUSIC --max-tokens 16384; }

step 5 && { echo "== 5. decoding on CUDA (${MODEL:?MODEL=a trained translation run})"
mkdir -p "$OUT/hyps"
decode() {  # name, then aiayn evaluate options
  local name=$1 t0=$SECONDS; shift
  [[ " ${DECODES:-$name} " == *" $name "* ]] || return 0
  rm -f "$MODEL"/hyp.*.es  # evaluate writes one there: the one this run wrote is then the only one
  timeout 60 python3 -m aiayn evaluate --model "$MODEL" --device cuda "$@" >"$OUT/decode-$name.log" 2>&1
  echo "$name: exit $?, $((SECONDS - t0)) s wall (start-up included); $(grep -h '^BLEU' "$OUT/decode-$name.log")"
  cp "$MODEL"/hyp.*.es "$OUT/hyps/$name.es" 2>/dev/null
}
decode fp32-beam4 --beam 4
decode bf16-beam4 --beam 4 --dtype bfloat16
decode bf16-greedy --beam 1 --dtype bfloat16
decode fp32-greedy --beam 1; }

step 6 && { echo "== 6. training throughput, base"
if (( SECONDS < ${SESSION_S:-520} - ${BASE_NEEDS:-200} )); then
  BASE="--preset base --max-steps 300 --set train.log_every=20 --set train.valid_every=1000 --set train.valid_bleu_sentences=0"
  train base-bf16 $BASE --precision bf16
  train base-fp32 $BASE --vocab /tmp/gpu-base-bf16/spm.model --precision fp32
else echo "base runs skipped: ${SECONDS} s gone"; fi; }

ls "$OUT"
