"""The precision policy: bf16 training with float32 master weights, ``auto``, and what older runs wrote."""

from __future__ import annotations

import json
import os

import pytest
import torch
from conftest import aiayn, train_args
from safetensors.torch import load_file

from aiayn import Transformer, TransformerConfig, build_optimizer, label_smoothed_cross_entropy, precision
from aiayn.model.attention.core import math_attention, sdpa_attention
from aiayn.training.config import TrainConfig


def test_a_bf16_run_stopped_and_resumed_equals_an_unbroken_bf16_run(data, tmp_path):
    whole, broken = tmp_path / "whole", tmp_path / "broken"
    aiayn(*train_args(data, whole, "--max-steps", "6", "--precision", "bf16"))
    aiayn(*train_args(data, broken, "--max-steps", "3", "--precision", "bf16"))
    aiayn(*train_args(data, broken, "--max-steps", "6", "--resume"))
    a, b = (load_file(run / "checkpoints/step-00000006.safetensors") for run in (whole, broken))
    assert all(t.dtype == torch.float32 for t in a.values())  # checkpoints keep the float32 master weights
    assert all(torch.equal(a[name], b[name]) for name in a)
    events = [json.loads(line) for line in (broken / "log.jsonl").read_text().splitlines()]
    assert {e["precision"] for e in events if e["event"] == "train"} == {"bf16"}
    # bf16 on a CPU batches lengths padded to 8 (so shapes repeat), recorded with the run's data settings
    assert json.loads((broken / "config.json").read_text())["data"]["length_multiple"] == 8


def test_float32_batches_exact_lengths_and_a_run_from_before_the_setting_resumes_on_them(data, trained, tmp_path):
    assert json.loads((trained / "config.json").read_text())["data"]["length_multiple"] == 1
    whole, old = tmp_path / "whole", tmp_path / "old"
    aiayn(*train_args(data, whole, "--max-steps", "4", "--precision", "bf16", "--length-multiple", "1"))
    aiayn(*train_args(data, old, "--max-steps", "2", "--precision", "bf16", "--length-multiple", "1"))
    config = json.loads((old / "config.json").read_text())
    del config["data"]["length_multiple"]  # as a run written before --length-multiple: exact lengths
    (old / "config.json").write_text(json.dumps(config))
    aiayn(*train_args(data, old, "--max-steps", "4", "--resume"))
    a, b = (load_file(run / "checkpoints/step-00000004.safetensors") for run in (whole, old))
    assert all(torch.equal(a[name], b[name]) for name in a)


def test_length_multiple_out_of_range_is_one_line(data, tmp_path):
    proc = aiayn(*train_args(data, tmp_path / "r", "--length-multiple", "0"), check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr.decode()
    assert "--length-multiple must be a whole number from 1 to 64, not 0" in proc.stderr.decode()
    assert not (tmp_path / "r").exists()


def test_length_multiple_policy():
    assert precision.length_multiple("bf16", torch.device("cpu")) == precision.BF16_CPU_LENGTH_MULTIPLE == 8
    assert precision.length_multiple("fp32", torch.device("cpu")) == 1
    assert precision.length_multiple("bf16", torch.device("meta")) == 1


def test_bf16_training_follows_float32_training_closely():
    """The same weights and batch: the bf16 working copy's loss and the float32 gradients it leaves on the
    master stay within bf16 rounding of float32's; after the update the copy holds the new weights, tied."""
    cfg = TransformerConfig.tiny(src_vocab_size=60, tgt_vocab_size=60, dropout=0.0)
    g = torch.Generator().manual_seed(0)
    src, tgt = torch.randint(4, 60, (8, 12), generator=g), torch.randint(4, 60, (8, 13), generator=g)
    results = {}
    for name in ("fp32", "bf16"):
        torch.manual_seed(0)
        model = Transformer(cfg).train()
        mixed = precision.BF16Training(model) if name == "bf16" else None
        work = mixed.work if mixed else model
        out = label_smoothed_cross_entropy(work(src, tgt[:, :-1]), tgt[:, 1:], 0.1, cfg.pad_id)
        (out.loss / out.n_tokens).backward()
        if mixed:
            assert all(m.grad is None and w.grad.dtype == torch.bfloat16 for m, w in mixed.pairs)
            mixed.accumulate()
            assert all(w.grad is None and m.grad.dtype == torch.float32 for m, w in mixed.pairs)
            optimizer, _ = build_optimizer(model, cfg.d_model, warmup=10)
            optimizer.step()
            mixed.refresh()
            assert all(w.dtype == torch.bfloat16 and torch.equal(w, m.bfloat16()) for m, w in mixed.pairs)
            assert mixed.work.tgt_embed.weight is mixed.work.src_embed.weight  # still tied
        results[name] = (out.loss.item() / out.n_tokens.item(), torch.cat([p.grad.flatten() for p in model.parameters()]))
    (loss32, grad32), (loss16, grad16) = results["fp32"], results["bf16"]
    assert loss16 == pytest.approx(loss32, rel=0.01)
    # 0.031 on an AMX Xeon (oneDNN's AMX kernels round differently), below 0.03 on the AVX-512 BF16 EPYC
    assert 0 < (grad16 - grad32).norm() / grad32.norm() < 0.05


@pytest.mark.parametrize("native, expected", [(True, "bf16"), (False, "fp32"), (None, "fp32")])
def test_auto_picks_bf16_only_where_the_cpu_multiplies_it(monkeypatch, native, expected):
    monkeypatch.setattr(precision, "cpu_has_native_bf16", lambda: native)
    assert precision.resolve_precision("auto", torch.device("cpu")) == expected
    assert precision.resolve_precision("fp32", torch.device("cpu")) == "fp32"
    assert precision.resolve_precision("bf16", torch.device("cpu")) == "bf16"


def test_a_config_written_before_train_precision_still_loads():
    assert TrainConfig.from_dict({"bf16": True}).precision == "bf16"
    assert TrainConfig.from_dict({"bf16": False}).precision == "fp32"
    assert TrainConfig.from_dict({"bf16": True, "precision": "auto"}).precision == "auto"
    with pytest.raises(Exception, match="train.precision must be one of auto, fp32, bf16"):
        TrainConfig(precision="half")


@pytest.mark.parametrize("causal", [False, True])
def test_bf16_attention_on_the_cpu_equals_the_formula(causal):
    """The CPU bf16 route of the fused kernel (the formula spelled out) against float64, with a key mask."""
    g = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(2, 4, 9, 16, generator=g) for _ in range(3))
    mask = torch.ones(2, 1, 1, 9, dtype=torch.bool)
    mask[1, ..., -3:] = False
    out, weights = sdpa_attention(*(t.bfloat16() for t in (q, k, v)), mask, causal, need_weights=True)
    want, want_w = math_attention(q.double(), k.double(), v.double(), mask, causal)
    assert out.dtype == torch.bfloat16
    torch.testing.assert_close(out.double(), want, rtol=0.03, atol=0.03)
    torch.testing.assert_close(weights.double(), want_w, rtol=0.03, atol=0.01)


@pytest.mark.parametrize("kind", ["relative", "relative-values", "local", "rnnsearch"])
def test_every_architecture_trains_in_bf16(kind):
    """The bf16 working copy of each family runs forward and backward (tiled attention included, at a
    length past one tile) and leaves finite float32 gradients near float32's on its master."""
    from aiayn import LanguageModel
    from aiayn.model.config import LanguageModelConfig, RNNSearchConfig
    from aiayn.model.rnnsearch import RNNSearch

    torch.manual_seed(0)
    lm = dict(vocab_size=30, d_model=32, n_heads=4, d_ff=64, n_layers=2, dropout=0.0, max_positions=300)
    model = {"relative": lambda: LanguageModel(LanguageModelConfig.from_dict(
                 {**lm, "attention": "relative", "positional": "none", "max_relative_distance": 40})),
             "relative-values": lambda: LanguageModel(LanguageModelConfig.from_dict(
                 {**lm, "attention": "relative", "positional": "none", "max_relative_distance": 6,
                  "relative_values": True})),
             "local": lambda: LanguageModel(LanguageModelConfig.from_dict(
                 {**lm, "attention": "local", "local_block": 8, "local_memory": 16})),
             "rnnsearch": lambda: RNNSearch(RNNSearchConfig(src_vocab_size=30, tgt_vocab_size=30, embed_dim=16,
                                                            hidden=16, maxout_dim=16, dropout=0.0))}[kind]()
    x = torch.randint(3, 30, (2, 257))

    def grads(net):
        logits = net(x[:, :20], x[:, :20]) if kind == "rnnsearch" else net(x)
        logits = logits[0] if isinstance(logits, tuple) else logits
        label_smoothed_cross_entropy(logits, x if kind != "rnnsearch" else x[:, :20], 0.0, 0).loss.backward()

    mixed = precision.BF16Training(model)
    grads(mixed.work)
    mixed.accumulate()
    ours = torch.cat([p.grad.flatten() for p in model.parameters()])
    model.zero_grad(set_to_none=True)
    grads(model)
    want = torch.cat([p.grad.flatten() for p in model.parameters()])
    assert torch.isfinite(ours).all() and (ours - want).norm() / want.norm() < 0.05


def test_aiayn_info_reports_the_host_and_the_ceilings(capsys):
    from aiayn.app import cli

    assert cli.main(["info", "--json", "--ceilings", "--threads", "1"]) in (0, None)
    report = json.loads(capsys.readouterr().out)
    assert report["cpu"] and report["auto_precision_cpu"] in ("fp32", "bf16")
    assert set(report["instructions"]) <= set(precision.HOST_FLAGS)
    rows = report["matmul_gflops"]
    assert [r["shape"] for r in rows][0] == "64 x 256 x 1024" and all(r["fp32"] > 0 for r in rows)


def test_dtype_auto_decodes_in_what_the_hardware_multiplies(monkeypatch):
    monkeypatch.setattr(precision, "cpu_has_native_bf16", lambda: True)
    assert precision.decoding_dtype("auto", "cpu") == "bfloat16"
    monkeypatch.setattr(precision, "cpu_has_native_bf16", lambda: False)
    assert precision.decoding_dtype("auto", "cpu") == "float32"
    assert precision.decoding_dtype("int8", "cpu") == "int8"


def test_the_report_names_the_updates_time_and_precision(trained):
    from aiayn import runs
    from aiayn.io.rundir import RunDir

    last = RunDir(trained).events("train")[-1]
    line = runs.launch.training_summary(RunDir(trained))
    assert line.strip() == (f"Trained {last['step']} updates in {last['elapsed'] / 60:.1f} min of training "
                            f"(fp32, {last['tgt_tok_s']:,.0f} target tokens/s at the end)")
    assert RunDir(trained).events("nothing") == [] and last["precision"] == "fp32"


def test_bf16_training_leaves_onednn_kernel_caches_at_their_size(monkeypatch):
    """Padded batches repeat a few dozen shapes: training keeps PyTorch's 1,024 kernels (unlike bf16 decoding)."""
    for variable in precision.CACHE_SIZES:
        monkeypatch.delenv(variable, raising=False)
    precision.BF16Training(Transformer(TransformerConfig.tiny(src_vocab_size=30, tgt_vocab_size=30)))
    assert not any(v in os.environ for v in precision.CACHE_SIZES)


@pytest.mark.parametrize("multiple, few", [(1, True), (8, False)])
def test_bf16_translation_keeps_few_kernels_only_on_exact_lengths(data, tmp_path, monkeypatch, multiple, few):
    """Exact lengths make a new batch shape nearly every step (a kept kernel is rarely met again: few are kept, as
    bf16 decoding keeps); padded lengths repeat a few dozen shapes, which PyTorch's 1,024 kernels hold."""
    from aiayn import runs

    for variable in precision.CACHE_SIZES:
        monkeypatch.delenv(variable, raising=False)
    runs.train(tmp_path / "run", train=str(data / "train.tsv.gz"), config_file=str(data / "micro.yaml"),
               overrides={"train.precision": "bf16", "train.max_steps": 1}, data={"length_multiple": multiple},
               device="cpu")
    assert all((os.environ.get(v) == size) == few for v, size in precision.CACHE_SIZES.items())
