"""The training loop of paper §5, for every task: token-bucketed batches, Adam with the warm-up
schedule, label smoothing, periodic validation, atomic checkpoints, exact resume, accumulation,
data parallelism and the precision policy (float32, or bf16 with float32 master weights).

What is learned and how it is judged comes from an objective (``aiayn.training.objective``) that a
task builds (``aiayn.tasks``): translation, parsing, or language modelling of music and images.
The model is rebuilt from its config's architecture.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import queue
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import torch

from ..data import BatchSampler, DataError
from ..errors import UserError
from ..io.checkpoint import CheckpointError, load_training_state, rng_state, save_training_state, save_weights
from ..io.registry import model_for
from ..io.rundir import JsonLog, RunDir
from ..model.config import LayerConfig
from ..precision import BF16Training, resolve_precision, warn_if_emulated_bf16
from ..progress import bar as progress_bar
from . import distributed as D
from .config import TrainConfig
from .objective import Objective
from .schedule import build_optimizer

log = logging.getLogger("aiayn")


class Interrupted(Exception):
    """Training stopped on SIGINT or SIGTERM after saving its state; ``--resume`` continues it exactly."""

    def __init__(self, signum: int, step: int, run: Path):
        super().__init__(f"stopped by {signal.Signals(signum).name} at step {step}; the training state is saved: "
                         f"continue with: aiayn train --out {run} --resume")
        self.signum = signum


class Diverged(UserError):
    """The loss or the gradients stopped being finite numbers."""


class Trainer:
    """Owns the model, optimiser, schedule and data position; ``fit()`` trains until a limit.

    ``objective`` supplies batches, loss and validation (``aiayn.training.objective.Objective``, built
    by a task); its ``fingerprint`` names the data the model depends on (a vocabulary's hash): a
    resume must find the same one. ``task_name`` is written into every weights file (``aiayn
    evaluate`` reads it). ``progress``: a tqdm-like factory for the bar and the validation lines
    (``aiayn.progress``); None shows nothing.
    """

    def __init__(self, run: RunDir, model_cfg: LayerConfig, cfg: TrainConfig, objective: Objective, world: D.World,
                 task_name: str | None = None, progress=None):
        self.run, self.model_cfg, self.cfg, self.objective, self.world = run, model_cfg, cfg, objective, world
        self.fingerprint, self.has_valid = objective.fingerprint, objective.has_valid
        self.weights_meta = {"tokenizer_sha256": self.fingerprint, **({"task": task_name} if task_name else {})}
        self.progress = progress if world.is_main else None
        if cfg.deterministic:
            os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # cuBLAS's condition for determinism
            torch.use_deterministic_algorithms(True)
        torch.manual_seed(cfg.seed)  # the same initial weights on every rank
        self.model = model_for(model_cfg).to(world.device)  # float32: the weights Adam updates and checkpoints keep
        self.use_precision(resolve_precision(cfg.precision, world.device))
        if world.rank:  # each rank its own dropout stream; rank 0 keeps the seed's (so one process is unchanged)
            torch.manual_seed(D.rank_seed(cfg.seed, world.rank))
        self.optimizer, self.scheduler = build_optimizer(
            self.model, model_cfg.d_model, cfg.warmup, cfg.lr_scale, cfg.adam_betas, cfg.adam_eps)
        n_batches = len(objective.train_batches)
        if n_batches < world.size * cfg.update_freq:
            raise DataError(f"the training data makes {n_batches} batches, fewer than one update needs "
                            f"({world.size} process(es) x update_freq {cfg.update_freq}); lower --max-tokens")
        self.sampler = BatchSampler(objective.train_batches, cfg.seed, rank=world.rank, world_size=world.size)
        self.step, self.elapsed, self.best = 0, 0.0, -math.inf
        self.stop_signal: int | None = None  # set by stop_on_signals: save and stop after the current step
        self.saved_step: int | None = None  # the step of the state on disk
        self.log = JsonLog(run.log, world.is_main)
        self.prefetcher: Prefetcher | None = None  # started by the first step, after any resume

    def use_precision(self, precision: str) -> None:
        """fp32: forward and backward on the model itself; bf16: on a bf16 working copy (``aiayn.precision``)."""
        self.precision = precision
        self.bf16 = BF16Training(self.model) if precision == "bf16" else None
        self.work_model = self.bf16.work if self.bf16 else self.model
        if self.bf16 and self.world.is_main:
            warn_if_emulated_bf16(self.world.device, "bf16 training")

    # State ---------------------------------------------------------------------------------
    def state_extra(self) -> dict[str, Any]:
        return {"step": self.step, "elapsed": self.elapsed, "best": self.best, "sampler": self.sampler.state_dict(),
                "model_config": self.model_cfg.to_dict(), "tokenizer_sha256": self.fingerprint,
                "train_batches": len(self.objective.train_batches), "precision": self.precision}

    def resume(self, changed: dict[str, list] | None = None) -> None:
        """Continues exactly where the last saved state left off; ``changed``: the train fields
        changed for this resume, {field: [old, new]}, written to the log."""
        path = self.run.state
        extra = load_training_state(path, self.model, self.optimizer, self.scheduler, self.world.rank,
                                    self.world.device)
        # Through from_dict: fields added to the config since the state was saved take their defaults.
        try:
            saved_cfg = type(self.model_cfg).from_dict(extra["model_config"]).to_dict()
        except (TypeError, ValueError) as e:
            raise CheckpointError(f"{path} carries no usable model config ({e})") from None
        if saved_cfg != self.model_cfg.to_dict():
            raise CheckpointError(f"{path} was built with a different model config")
        if extra.get("tokenizer_sha256") != self.fingerprint:
            raise CheckpointError(f"{path} was built with a different vocabulary")
        batches = len(self.objective.train_batches)
        if extra.get("train_batches", batches) != batches:
            raise CheckpointError(f"the training data changed since {path} was saved ({extra['train_batches']} batches "
                                  f"then, {batches} now); resume on the run's data")
        if extra.get("world_size", self.world.size) != self.world.size:
            raise CheckpointError(f"{path} was saved by {extra['world_size']} process(es); resume with as many "
                                  f"(torchrun --nproc_per_node {extra['world_size']}) to continue it exactly")
        self.step, self.elapsed, self.best = extra["step"], extra["elapsed"], extra["best"]
        # what the run chose (train.precision auto decides once), else what states before the field had
        saved = extra.get("precision", "bf16" if self.cfg.precision == "bf16" else "fp32")
        if saved != self.precision:
            self.use_precision(saved)
        if self.bf16:
            self.bf16.refresh()
        self.saved_step = self.step
        self.sampler.load_state_dict(extra["sampler"])
        self.log.write("resume", step=self.step, changed=changed or {})

    def save(self, weights: bool = True) -> None:
        """A weights file for this step (the oldest beyond keep_last removed), then the full state.
        Every rank takes part: each sends its random state to the main process, which writes."""
        rng = D.gather_to_main(rng_state(self.world.device), self.world)
        if not self.world.is_main:
            self.saved_step = self.step  # the main process writes it
            return
        if weights:
            save_weights(self.model, self.model_cfg, self.run.checkpoint(self.step), step=self.step, **self.weights_meta)
            for old in self.run.list_checkpoints()[: -self.cfg.keep_last]:
                old.unlink()
        save_training_state(self.run.state, self.model, self.optimizer, self.scheduler, self.state_extra(), rng)
        self.saved_step = self.step
        self.log.write("checkpoint", step=self.step, path=str(self.run.checkpoint(self.step) if weights else self.run.state))

    # One update ----------------------------------------------------------------------------
    def train_step(self, ddp_model: torch.nn.Module) -> dict[str, float]:
        """update_freq batches, gradients summed, normalised by the real target tokens of all of them."""
        sums = torch.zeros(3, dtype=torch.float64)  # loss, nll, target tokens
        for micro in range(self.cfg.update_freq):
            batch = self._next_batch()
            sync = micro == self.cfg.update_freq - 1 or self.world.size == 1
            with _maybe_no_sync(ddp_model, not sync):
                out = self.objective.loss(ddp_model, batch, self.cfg.label_smoothing)
                out.loss.backward()  # a sum: normalised below, once every token is counted
            if self.bf16:
                self.bf16.accumulate()  # into the float32 gradients of the master weights
            sums += torch.tensor([out.loss.item(), out.nll.item(), batch.n_tokens], dtype=torch.float64)
        loss, nll, n_tokens = D.sum_across(sums.tolist(), self.world)
        # DDP averaged the summed gradients over ranks; rescale to a per-token mean over all ranks.
        for p in self.model.parameters():
            if p.grad is not None:
                p.grad.mul_(self.world.size / n_tokens)
        grad_norm = float(torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg.clip_norm or math.inf))
        if not (math.isfinite(loss) and math.isfinite(grad_norm)):  # the same on every rank: all stop together
            self.optimizer.zero_grad(set_to_none=True)
            again = (f"--resume from the last save (step {self.saved_step})" if self.saved_step is not None
                     else "train again (nothing was saved yet)")
            raise Diverged(f"step {self.step + 1}: the loss ({loss / n_tokens:.4g}) or gradient norm ({grad_norm:.4g}) is "
                           "not finite; the step was not taken and nothing from it saved: lower --lr-scale or set "
                           f"train.clip_norm, then {again}")
        lr = self.optimizer.param_groups[0]["lr"]
        self.optimizer.step()
        self.scheduler.step()
        self.optimizer.zero_grad(set_to_none=True)
        if self.bf16:
            self.bf16.refresh()  # the working copy takes the updated weights: one cast per update
        self.step += 1
        return {"loss": loss / n_tokens, "nll": nll / n_tokens, "lr": lr, "tgt_tokens": n_tokens}

    def _next_batch(self):
        """The sampler's next batch on the device, collated ahead by a background thread when the objective
        allows it and ``train.prefetch`` > 0."""
        indices = next(self.sampler)
        if not self.objective.prefetch or not self.cfg.prefetch:
            return self.objective.batch(indices).to(self.world.device)
        if self.prefetcher is None:
            self.prefetcher = Prefetcher(self.objective, self.sampler, self.cfg.prefetch,
                                         pin=self.world.device.type == "cuda")
        # from page-locked memory the copy runs asynchronously, behind the work already queued on the GPU
        return self.prefetcher.get(indices).to(self.world.device, non_blocking=self.prefetcher.pin)

    # Validation ----------------------------------------------------------------------------
    def validate(self) -> dict[str, float]:
        """The objective's validation figures, with dropout off. Every rank validates a share, so none
        idles into a collective timeout while another validates a big model alone."""
        self.model.eval()
        try:
            return self.objective.validate(self.model, self.world.device, self.world)
        finally:
            self.model.train()

    def _after_validation(self, result: dict[str, float]) -> str:
        metric = self.objective.metric(result)
        is_best = metric > self.best
        if is_best:
            self.best = metric
            save_weights(self.model, self.model_cfg, self.run.best, step=self.step, **self.weights_meta, **result)
        self.log.write("valid", step=self.step, best=is_best, **result)
        return f"step {self.step}: {self.objective.describe(result)}" + (" (best)" if is_best else "")

    # The loop ------------------------------------------------------------------------------
    def fit(self) -> None:
        """Trains until max_steps or max_time; validates and saves at their intervals and at the end.
        After a stop signal (``stop_signal``), saves the state at the end of the current step and returns."""
        ddp_model = D.wrap(self.work_model, self.world)
        self.work_model.train()
        bar = self._progress_bar()
        try:
            self._loop(ddp_model, bar)
        finally:
            bar.close()  # before any error is printed, so it gets a line of its own
            if self.prefetcher is not None:
                self.prefetcher.close()
                self.prefetcher = None
        if self.stop_signal is not None:
            self.save(weights=False)
            self.log.write("interrupted", step=self.step, signal=signal.Signals(self.stop_signal).name)

    def _loop(self, ddp_model: torch.nn.Module, bar) -> None:
        """Steps until a limit or a stop signal, logging, validating and saving on the way."""
        cfg = self.cfg
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
            if self.stop_signal is not None:
                break  # the step is done: its state is saved by fit(), without validating
            paused_at = time.time()
            self._maybe_validate_and_save(bar, final=stop)
            if cfg.max_time:  # a --max-time bar counts training seconds: move its clock past the pause
                pause = time.time() - paused_at
                bar.start_t, bar.last_print_t = bar.start_t + pause, bar.last_print_t + pause

    def _progress_bar(self):
        """Counts steps, or training seconds when --max-time sets the limit (so its ETA is right)."""
        if self.cfg.max_time:
            return progress_bar(self.progress, total=round(self.cfg.max_time), initial=round(self.elapsed),
                                bar_format="{l_bar}{bar}| {elapsed}<{remaining}{postfix}", dynamic_ncols=True)
        return progress_bar(self.progress, total=self.cfg.max_steps, initial=self.step, unit="step",
                            dynamic_ncols=True)

    def _log_progress(self, bar, stats: dict[str, float], window: dict[str, float]) -> None:
        tok_s = window["tokens"] / max(window["time"], 1e-9)
        read = round(window["tokens"])  # the count itself: a rate times a clock rounded to 0.01 s loses fast steps
        window.update(tokens=0.0, time=0.0)
        fields = {"loss": round(stats["loss"], 4), "ppl": round(math.exp(min(stats["nll"], 50)), 2),
                  "lr": stats["lr"], "tgt_tok_s": round(tok_s, 1), "tgt_tokens": read, "precision": self.precision}
        postfix = {"step": self.step, "loss": f"{stats['loss']:.3f}", "lr": f"{stats['lr']:.2e}", "tok/s": f"{tok_s:.0f}"}
        bar.set_postfix(postfix, refresh=False)
        self.log.write("train", step=self.step, elapsed=round(self.elapsed, 2), **fields)

    def _maybe_validate_and_save(self, bar, final: bool) -> None:
        cfg = self.cfg
        if self.has_valid and (self.step % cfg.valid_every == 0 or final):
            result = self.validate()
            if self.world.is_main:
                bar.write(self._after_validation(result))
        if self.step % cfg.save_every == 0 or final:
            self.save()
        D.barrier(self.world)

    def _should_stop(self) -> bool:
        limit = self.step >= self.cfg.max_steps or (self.cfg.max_time is not None and self.elapsed >= self.cfg.max_time)
        if self.world.size == 1:
            return limit or self.stop_signal is not None
        # Every rank must stop at the same step: the main process's clock decides, and a signal to any rank stops all.
        main_limit, signals = D.sum_across([float(limit and self.world.is_main), float(self.stop_signal is not None)],
                                           self.world)
        if signals and self.stop_signal is None:
            self.stop_signal = signal.SIGTERM
        return bool(main_limit or signals)


class Prefetcher:
    """Collates the batches after the current one in a background thread, so collation overlaps the step.

    The thread walks its own copy of the sampler, started where the trainer's is (the batch the
    trainer asks for next is its first), so the trainer's sampler still counts only the batches
    consumed: the state saved for ``--resume`` is exact whatever the thread has prepared.
    ``depth``: batches kept ready; ``pin``: put them in page-locked memory (for CUDA).
    """

    def __init__(self, objective: Objective, sampler, depth: int = 2, pin: bool = False):
        self.objective, self.ahead, self.pin = objective, sampler.clone(), pin
        self.ahead.load_state_dict(sampler.state_dict())  # the batch just taken is the first to prepare
        self.ahead.rewind_one()
        self.queue: queue.Queue = queue.Queue(maxsize=depth)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._work, name="aiayn-prefetch", daemon=True)
        self.thread.start()

    def _work(self) -> None:
        try:
            while not self.stop.is_set():
                indices = next(self.ahead)
                batch = self.objective.batch(indices)
                item = (indices, batch.pin_memory() if self.pin else batch)
                while not self.stop.is_set():
                    try:
                        self.queue.put(item, timeout=0.1)
                        break
                    except queue.Full:
                        continue
        except Exception as e:  # handed to the training thread, which raises it
            self.queue.put((None, e))

    def get(self, indices: list[int]):
        """The collated batch of ``indices`` (the trainer's next); collated here if the thread disagrees."""
        got, item = self.queue.get()
        if got is None:
            raise item
        return item if got == indices else self.objective.batch(indices)

    def close(self) -> None:
        self.stop.set()
        with contextlib.suppress(queue.Empty):
            while True:
                self.queue.get_nowait()
        self.thread.join(timeout=5)


@contextlib.contextmanager
def stop_on_signals(trainer: Trainer) -> Iterator[None]:
    """While training, SIGINT (Ctrl-C) and SIGTERM ask ``trainer`` to save and stop after its current
    step; a second Ctrl-C stops at once (the last complete save stays intact)."""
    if threading.current_thread() is not threading.main_thread():  # only the main thread may handle signals
        yield
        return

    def ask_to_stop(signum, frame):
        if signum == signal.SIGINT and trainer.stop_signal is not None:
            raise KeyboardInterrupt
        trainer.stop_signal = trainer.stop_signal or signum

    previous = {s: signal.signal(s, ask_to_stop) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _maybe_no_sync(model: torch.nn.Module, skip_sync: bool):
    """DDP's no_sync() while accumulating, so gradients are all-reduced once per update."""
    return model.no_sync() if skip_sync and hasattr(model, "no_sync") else contextlib.nullcontext()

