#!/usr/bin/env bash
# Issue 29 on one lent GPU: what hours of chorale training buy, in minutes. Three runs of the voices preset,
# transposed ±5, bf16, side by side on one GPU for the same training time (TRAIN_S seconds, default 420):
#   g2k      the CPU recipe (one 2,048-token window per update), only longer;
#   g8k      four windows per update (8,192 tokens);
#   g8k-L6   four windows per update and 6 layers instead of 4.
# RUNS="g8k-ir g8k-ir-ul8" trains g8k with the transposed copies kept to the choir ranges (data.in_range), without
# and with the unlikelihood of parallel 5ths/8ves at α 8 (train.unlikelihood), from scratch.
# RUNS="w1024 abs-w1024 abs-w1024-lr0.1" trains 1,024-token windows instead, relative (voices) against absolute
# positions at two rates, for scoring beyond the training length (docs/music.md).
# Each run's best weights (by validation NLL) land in $OUT/NAME.best.safetensors (over 15 MB: split into
# .partNN pieces, joined by `cat`), its config.json, log.jsonl and console log in $OUT/runs.tar.gz. Grade them
# here with `aiayn grade --model DIR` and score them with `aiayn evaluate --task music --model DIR`.
# Needs music21 on PYTHONPATH and the encoded chorales under AIAYN_CACHE (BENCHMARKS.md, "Training on one GPU").
# Usage (repository root): OUT=/tmp/gpu TRAIN_S=420 bash benchmarks/gpu_chorales.sh
set -u
export PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
OUT=${OUT:-/tmp/gpu-chorales}
TRAIN_S=${TRAIN_S:-420}
RUNS=${RUNS:-g2k g8k g8k-L6}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
COMMON="--task music --preset voices --device cuda --bf16 --max-time ${TRAIN_S}s --set data.transpose=5
        --set train.valid_every=250 --set train.save_every=250 --set train.log_every=50"
W1024="--max-tokens 8192 --set data.window=1024"
declare -A EXTRA=([g2k]="" [g8k]="--max-tokens 8192" [g8k-L6]="--max-tokens 8192 --set model.n_layers=6"
                  [g8k-ir]="--max-tokens 8192 --set data.in_range=true"
                  [g8k-ir-ul8]="--max-tokens 8192 --set data.in_range=true --set train.unlikelihood=8"
                  [w1024]="$W1024" [abs-w1024]="$W1024 --preset absolute"
                  [abs-w1024-lr0.1]="$W1024 --preset absolute --set train.lr_scale=0.1")
for name in $RUNS; do
  # the wall limit leaves a minute for compiling kernels before the clock of --max-time starts
  timeout $((TRAIN_S + 75)) python3 -m aiayn train $COMMON ${EXTRA[$name]} --out "/tmp/run-$name" \
    >"/tmp/train-$name.log" 2>&1 &
done
wait
for name in $RUNS; do
  run=/tmp/run-$name
  tail -c 600 "/tmp/train-$name.log" | tr '\r' '\n' | tail -3
  grep '"valid' "$run/log.jsonl" | tail -2
  mkdir -p "/tmp/logs/$name"; cp "$run/config.json" "$run/log.jsonl" "/tmp/train-$name.log" "/tmp/logs/$name/"
  if [ "$(stat -c %s "$run/best.safetensors" 2>/dev/null || echo 0)" -gt 15000000 ]; then
    split -b 15000000 -d "$run/best.safetensors" "$OUT/$name.best.safetensors.part"
  else
    cp "$run/best.safetensors" "$OUT/$name.best.safetensors"
  fi
done
tar -czf "$OUT/runs.tar.gz" -C /tmp/logs .  # configs and logs in one file: few files come back from a lent GPU
ls -lR "$OUT"
