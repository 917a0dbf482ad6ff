"""The training loop of paper §5: token-bucketed batches, Adam with the warm-up schedule,
label smoothing, periodic validation (loss, perplexity, BLEU), atomic checkpoints, exact resume.

Legend: B sentences, S source length, T target length.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from tqdm import tqdm

from ..config import TransformerConfig
from ..data import BatchSampler, DataError, ParallelCorpus, Tokenizer, batch_by_tokens, collate, filter_pairs
from ..evaluation import corpus_scores
from ..model import Transformer
from ..precision import warn_if_emulated_bf16
from ..rundir import RunDir
from ..translator import Translator
from . import distributed as D
from .checkpoint import CheckpointError, load_training_state, save_training_state, save_weights
from .config import TrainConfig
from .loss import label_smoothed_cross_entropy
from .schedule import build_optimizer

log = logging.getLogger("aiayn")


class JsonLog:
    """Appends one JSON object per line to the run's log; only the main process writes."""

    def __init__(self, path: Path, enabled: bool):
        self.path, self.enabled = path, enabled

    def write(self, event: str, **fields: Any) -> None:
        if self.enabled:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(json.dumps({"event": event, "time": round(time.time(), 3), **fields}) + "\n")


@dataclass
class EncodedCorpus:
    """A tokenized corpus and the batches it is cut into."""

    src: list[list[int]]
    tgt: list[list[int]]
    batches: list[list[int]]

    def batch(self, indices: list[int], tok: Tokenizer):
        return collate([self.src[i] for i in indices], [self.tgt[i] for i in indices], tok.pad_id, tok.bos_id, tok.eos_id)


def encode_corpus(corpus: ParallelCorpus, tok: Tokenizer, cfg: TrainConfig, max_positions: int, name: str) -> EncodedCorpus:
    """Tokenizes, drops empty and over-long pairs (saying how many), and batches by tokens."""
    src, tgt = tok.encode(corpus.src), tok.encode(corpus.tgt)
    keep, n_empty, n_long = filter_pairs(src, tgt, max_positions)
    if n_empty or n_long:
        log.warning("%s: dropped %d pairs with an empty side and %d longer than %d tokens", name, n_empty, n_long,
                    max_positions - 1)
    if not keep:
        raise DataError(f"{name}: no usable sentence pairs (all empty or too long)")
    src, tgt = [src[i] for i in keep], [tgt[i] for i in keep]
    batches = batch_by_tokens([len(s) for s in src], [len(t) for t in tgt], cfg.max_tokens, cfg.max_sentences)
    return EncodedCorpus(src, tgt, batches)


class Trainer:
    """Owns the model, optimiser, schedule and data position; ``fit()`` trains until a limit."""

    def __init__(self, run: RunDir, model_cfg: TransformerConfig, cfg: TrainConfig, tokenizer: Tokenizer,
                 train: EncodedCorpus, valid: ParallelCorpus | None, world: D.World):
        self.run, self.model_cfg, self.cfg, self.tok, self.world = run, model_cfg, cfg, tokenizer, world
        self.train_data, self.valid = train, valid
        if cfg.bf16 and world.is_main:
            warn_if_emulated_bf16(world.device, "--bf16")
        torch.manual_seed(cfg.seed)
        self.model = Transformer(model_cfg).to(world.device)
        self.optimizer, self.scheduler = build_optimizer(
            self.model, model_cfg.d_model, cfg.warmup, cfg.lr_scale, cfg.adam_betas, cfg.adam_eps)
        self.sampler = BatchSampler(train.batches, cfg.seed, rank=world.rank, world_size=world.size)
        if self.sampler.batches_per_epoch < cfg.update_freq:
            raise DataError("the training data makes fewer batches than one update needs; lower --max-tokens")
        self.step, self.elapsed, self.best = 0, 0.0, -math.inf
        self.log = JsonLog(run.log, world.is_main)
        self.valid_encoded = (
            encode_corpus(valid, tokenizer, cfg, model_cfg.max_positions, "validation") if valid else None
        )

    # State ---------------------------------------------------------------------------------
    def state_extra(self) -> dict[str, Any]:
        return {"step": self.step, "elapsed": self.elapsed, "best": self.best, "sampler": self.sampler.state_dict(),
                "model_config": self.model_cfg.to_dict(), "tokenizer_sha256": self.tok.fingerprint()}

    def resume(self) -> None:
        """Continues exactly where the last saved state left off."""
        extra = load_training_state(self.run.state, self.model, self.optimizer, self.scheduler)
        if extra["model_config"] != self.model_cfg.to_dict():
            raise CheckpointError(f"{self.run.state} was built with a different model config")
        if extra["tokenizer_sha256"] != self.tok.fingerprint():
            raise CheckpointError(f"{self.run.state} was built with a different vocabulary")
        self.step, self.elapsed, self.best = extra["step"], extra["elapsed"], extra["best"]
        self.sampler.load_state_dict(extra["sampler"])
        self.log.write("resume", step=self.step)

    def save(self) -> None:
        """A weights file for this step (the oldest beyond keep_last removed), then the full state."""
        if not self.world.is_main:
            return
        meta = {"step": self.step, "tokenizer_sha256": self.tok.fingerprint()}
        save_weights(self.model, self.model_cfg, self.run.checkpoint(self.step), **meta)
        for old in self.run.list_checkpoints()[: -self.cfg.keep_last]:
            old.unlink()
        save_training_state(self.run.state, self.model, self.optimizer, self.scheduler, self.state_extra())
        self.log.write("checkpoint", step=self.step, path=str(self.run.checkpoint(self.step)))

    # One update ----------------------------------------------------------------------------
    def train_step(self, ddp_model: torch.nn.Module) -> dict[str, float]:
        """update_freq batches, gradients summed, normalised by the real target tokens of all of them."""
        sums = torch.zeros(3, dtype=torch.float64)  # loss, nll, target tokens
        n_src = 0
        for micro in range(self.cfg.update_freq):
            batch = self.train_data.batch(next(self.sampler), self.tok).to(self.world.device)
            sync = micro == self.cfg.update_freq - 1 or self.world.size == 1
            with _maybe_no_sync(ddp_model, not sync):
                with torch.autocast(self.world.device.type, torch.bfloat16, enabled=self.cfg.bf16):
                    logits = ddp_model(batch.src, batch.tgt_in)  # (B, T, V)
                    out = label_smoothed_cross_entropy(logits, batch.tgt_out, self.cfg.label_smoothing,
                                                       self.tok.pad_id)
                out.loss.backward()  # a sum: normalised below, once every token is counted
            sums += torch.tensor([out.loss.item(), out.nll.item(), batch.n_tokens], dtype=torch.float64)
            n_src += int((batch.src != self.tok.pad_id).sum())
        loss, nll, n_tokens, n_src = D.sum_across(sums.tolist() + [n_src], self.world)
        # DDP averaged the summed gradients over ranks; rescale to a per-token mean over all ranks.
        for p in self.model.parameters():
            if p.grad is not None:
                p.grad.mul_(self.world.size / n_tokens)
        if self.cfg.clip_norm > 0:
            torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.clip_norm)
        lr = self.optimizer.param_groups[0]["lr"]
        self.optimizer.step()
        self.scheduler.step()
        self.optimizer.zero_grad(set_to_none=True)
        self.step += 1
        return {"loss": loss / n_tokens, "nll": nll / n_tokens, "lr": lr, "tgt_tokens": n_tokens, "src_tokens": n_src}

    # Validation ----------------------------------------------------------------------------
    @torch.no_grad()
    def validate(self) -> dict[str, float]:
        """Loss and perplexity of the true tokens on the validation set, and greedy BLEU / chrF."""
        self.model.eval()
        sums = torch.zeros(3, dtype=torch.float64)
        for indices in self.valid_encoded.batches:
            batch = self.valid_encoded.batch(indices, self.tok).to(self.world.device)
            out = label_smoothed_cross_entropy(self.model(batch.src, batch.tgt_in), batch.tgt_out,
                                               self.cfg.label_smoothing, self.tok.pad_id)
            sums += torch.tensor([out.loss.item(), out.nll.item(), out.n_tokens.item()], dtype=torch.float64)
        loss, nll, n = sums.tolist()
        result = {"valid_loss": loss / n, "valid_nll": nll / n, "valid_ppl": math.exp(nll / n)}
        n_bleu = min(self.cfg.valid_bleu_sentences, len(self.valid))
        if n_bleu:
            hyps = Translator(self.model, self.tok, self.world.device).translate(self.valid.src[:n_bleu], beam_size=1)
            scores = corpus_scores(hyps, self.valid.tgt[:n_bleu])
            result.update(valid_bleu=scores.bleu, valid_chrf=scores.chrf)
        self.model.train()
        return result

    def _after_validation(self, result: dict[str, float]) -> str:
        metric = result.get("valid_bleu", -result["valid_loss"])
        is_best = metric > self.best
        if is_best:
            self.best = metric
            save_weights(self.model, self.model_cfg, self.run.best, step=self.step,
                         tokenizer_sha256=self.tok.fingerprint(), **result)
        self.log.write("valid", step=self.step, best=is_best, **result)
        text = f"step {self.step}: valid loss {result['valid_loss']:.3f}, ppl {result['valid_ppl']:.2f}"
        if "valid_bleu" in result:
            text += f", BLEU {result['valid_bleu']:.2f}, chrF {result['valid_chrf']:.2f}"
        return text + (" (best)" if is_best else "")

    # The loop ------------------------------------------------------------------------------
    def fit(self) -> None:
        """Trains until max_steps or max_time; validates and saves at their intervals and at the end."""
        cfg = self.cfg
        ddp_model = D.wrap(self.model, self.world)
        self.model.train()
        bar = self._progress_bar()
        window = {"tokens": 0.0, "time": 0.0}
        stop = self._should_stop()
        while not stop:
            start = time.perf_counter()
            stats = self.train_step(ddp_model)
            spent = time.perf_counter() - start
            self.elapsed += spent
            window["tokens"] += stats["tgt_tokens"]
            window["time"] += spent
            bar.update(min(spent, bar.total - bar.n) if cfg.max_time else 1)  # the last step may overrun
            if self.step % cfg.log_every == 0 or self.step == 1:
                self._log_progress(bar, stats, window)
            stop = self._should_stop()
            if stop:
                bar.close()  # the bar times training: its clock stops before the final validation and save
            paused_at = time.time()
            self._maybe_validate_and_save(final=stop)
            if cfg.max_time:  # a --max-time bar counts training seconds: move its clock past the pause
                pause = time.time() - paused_at
                bar.start_t, bar.last_print_t = bar.start_t + pause, bar.last_print_t + pause
        bar.close()

    def _progress_bar(self) -> tqdm:
        """Counts steps, or training seconds when --max-time sets the limit (so its ETA is right)."""
        if self.cfg.max_time:
            return tqdm(total=round(self.cfg.max_time), initial=round(self.elapsed), disable=not self.world.is_main,
                        bar_format="{l_bar}{bar}| {elapsed}<{remaining}{postfix}", dynamic_ncols=True)
        return tqdm(total=self.cfg.max_steps, initial=self.step, unit="step", disable=not self.world.is_main,
                    dynamic_ncols=True)

    def _log_progress(self, bar: tqdm, stats: dict[str, float], window: dict[str, float]) -> None:
        tok_s = window["tokens"] / max(window["time"], 1e-9)
        window.update(tokens=0.0, time=0.0)
        fields = {"loss": round(stats["loss"], 4), "ppl": round(math.exp(min(stats["nll"], 50)), 2),
                  "lr": stats["lr"], "tgt_tok_s": round(tok_s, 1)}
        postfix = {"step": self.step, "loss": f"{stats['loss']:.3f}", "lr": f"{stats['lr']:.2e}", "tok/s": f"{tok_s:.0f}"}
        bar.set_postfix(postfix, refresh=False)
        self.log.write("train", step=self.step, elapsed=round(self.elapsed, 2), **fields)

    def _maybe_validate_and_save(self, final: bool) -> None:
        cfg = self.cfg
        if self.valid_encoded is not None and (self.step % cfg.valid_every == 0 or final) and self.world.is_main:
            tqdm.write(self._after_validation(self.validate()))
        if self.step % cfg.save_every == 0 or final:
            self.save()
        D.barrier(self.world)

    def _should_stop(self) -> bool:
        stop = self.step >= self.cfg.max_steps or (self.cfg.max_time is not None and self.elapsed >= self.cfg.max_time)
        # Every rank must stop at the same step: the main process's clock decides.
        return bool(D.sum_across([float(stop and self.world.is_main)], self.world)[0]) if self.world.size > 1 else stop


def _maybe_no_sync(model: torch.nn.Module, skip_sync: bool):
    """DDP's no_sync() while accumulating, so gradients are all-reduced once per update."""
    return model.no_sync() if skip_sync and hasattr(model, "no_sync") else contextlib.nullcontext()

