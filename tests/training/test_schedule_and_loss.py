"""The schedule (§5.3), Adam's settings, label smoothing (§5.4) against hand-computed and torch's own
losses, and the device/collective set-up of distributed training."""

import math
from unittest import mock

import pytest
import torch
import torch.nn.functional as F

import aiayn
from aiayn.io.checkpoint import load_training_state, rng_state, save_training_state
from aiayn.training import label_smoothed_cross_entropy, noam_lr
from aiayn.training.loss import fused_smoothed_cross_entropy


def test_schedule_at_the_papers_landmarks():
    # lrate = 512^-0.5 * min(step^-0.5, step * 4000^-1.5), computed by hand.
    assert noam_lr(1, 512) == pytest.approx(512**-0.5 * 4000**-1.5)  # 1.7469e-07
    assert noam_lr(1, 512) == pytest.approx(1.7469e-07, rel=1e-4)
    assert noam_lr(4000, 512) == pytest.approx(6.9877e-04, rel=1e-4)  # the peak, at warmup
    assert noam_lr(100000, 512) == pytest.approx(1.3975e-04, rel=1e-4)
    assert noam_lr(3999, 512) < noam_lr(4000, 512) > noam_lr(4001, 512)


def test_build_optimizer_uses_the_papers_adam_and_schedule():
    model = torch.nn.Linear(4, 4)
    opt, sched = aiayn.build_optimizer(model, d_model=512)
    group = opt.param_groups[0]
    assert group["betas"] == (0.9, 0.98) and group["eps"] == 1e-9
    seen = []
    for _ in range(3):
        seen.append(group["lr"])
        opt.step()
        sched.step()
    assert seen == pytest.approx([noam_lr(s, 512) for s in (1, 2, 3)])


def test_adam_is_fused_equals_the_loop_form_and_a_resume_keeps_the_form_it_saved(tmp_path):
    torch.manual_seed(0)
    fused_model, loop_model = torch.nn.Linear(16, 8), torch.nn.Linear(16, 8)
    loop_model.load_state_dict(fused_model.state_dict())
    (fused, fused_sched), (loop, loop_sched) = (aiayn.build_optimizer(m, 512, warmup=10)
                                                for m in (fused_model, loop_model))
    loop.param_groups[0]["fused"] = None  # the for-loop form, as every run saved before fused Adam
    assert fused.param_groups[0]["fused"] is True
    for _ in range(5):
        grads = [torch.randn_like(p) for p in fused_model.parameters()]
        for model, opt, sched in ((fused_model, fused, fused_sched), (loop_model, loop, loop_sched)):
            for p, g in zip(model.parameters(), grads):
                p.grad = g.clone()
            opt.step()
            sched.step()
    pairs = list(zip(fused_model.parameters(), loop_model.parameters()))
    assert all(torch.allclose(a, b, rtol=0, atol=1e-6) for a, b in pairs)  # equal to rounding...
    # ... and two forms indeed: only the fused one calls the fused kernel (whether their last bits differ depends on
    # the CPU: equal on an AMX Xeon, not on an AVX-512 BF16 EPYC)
    real, calls = torch._fused_adam_, []
    with mock.patch.object(torch, "_fused_adam_", lambda *a, **k: calls.append(1) or real(*a, **k)):
        for opt in (fused, loop):
            before = len(calls)
            opt.step()
            assert (len(calls) > before) == (opt is fused)
    save_training_state(tmp_path / "state.safetensors", loop_model, loop, loop_sched, {}, [rng_state(torch.device("cpu"))])
    fresh = torch.nn.Linear(16, 8)
    opt, sched = aiayn.build_optimizer(fresh, 512, warmup=10)
    load_training_state(tmp_path / "state.safetensors", fresh, opt, sched)
    assert opt.param_groups[0]["fused"] is None  # resumed bit for bit: the form the run trained with


def test_label_smoothing_against_a_hand_computed_loss():
    # V = 3, eps = 0.3: q' = 0.8 on the true class and 0.1 on each other class.
    logits = torch.tensor([[0.0, math.log(3.0), 0.0], [5.0, 5.0, 5.0]])
    target = torch.tensor([1, 0])
    # Row 0: p = (0.2, 0.6, 0.2). H(q', p) = -(0.8 ln 0.6 + 0.1 ln 0.2 + 0.1 ln 0.2). Row 1 is padding.
    expected = -(0.8 * math.log(0.6) + 0.2 * math.log(0.2))
    out = label_smoothed_cross_entropy(logits, target, epsilon=0.3, pad_id=0)
    assert out.loss.item() == pytest.approx(expected, rel=1e-6)
    assert out.nll.item() == pytest.approx(-math.log(0.6), rel=1e-6)
    assert out.n_tokens.item() == 1


def test_label_smoothing_matches_torch_cross_entropy():
    g = torch.Generator().manual_seed(0)
    logits, target = torch.randn(4, 7, 11, generator=g), torch.randint(0, 11, (4, 7), generator=g)
    out = label_smoothed_cross_entropy(logits, target, epsilon=0.1, pad_id=0)
    ref = F.cross_entropy(logits.view(-1, 11), target.view(-1), ignore_index=0, label_smoothing=0.1, reduction="sum")
    torch.testing.assert_close(out.loss, ref)
    assert out.n_tokens == (target != 0).sum()


def test_plain_cuda_gives_each_torchrun_process_its_own_gpu(monkeypatch):
    """`torchrun ... aiayn train --device cuda`: rank r must train on cuda:LOCAL_RANK, not all on GPU 0
    (found on a real GPU: torch.cuda.set_device refuses a device without an index)."""
    from aiayn import checks
    from aiayn.training import distributed as D

    chosen = []
    monkeypatch.setenv("LOCAL_RANK", "1")
    monkeypatch.setattr(checks, "device", lambda name: torch.device(name))
    monkeypatch.setattr(torch.cuda, "set_device", chosen.append)
    assert D.init_world("cuda").device == torch.device("cuda", 1) and chosen == [torch.device("cuda", 1)]
    assert D.init_world("cuda:0").device == torch.device("cuda", 0)


def test_collectives_wait_long_enough_for_a_build(monkeypatch):
    """Ranks wait at a barrier while their machine's first process binarizes: far longer than gloo's 30 minutes."""
    import datetime

    from aiayn.errors import UsageError
    from aiayn.training import distributed as D

    monkeypatch.delenv("AIAYN_DIST_TIMEOUT", raising=False)
    assert D.collective_timeout() == datetime.timedelta(hours=4)
    monkeypatch.setenv("AIAYN_DIST_TIMEOUT", "90")
    assert D.collective_timeout() == datetime.timedelta(minutes=90)
    for bad in ("0", "soon", "inf"):
        monkeypatch.setenv("AIAYN_DIST_TIMEOUT", bad)
        with pytest.raises(UsageError, match=f"AIAYN_DIST_TIMEOUT='{bad}' is not a number of minutes above 0"):
            D.collective_timeout()


def test_unlikelihood_against_a_hand_computed_sum():
    from aiayn.training.loss import unlikelihood

    # p = (0.2, 0.6, 0.2) at each of three positions; the third is padding (pad id 5)
    logits = torch.tensor([[0.0, math.log(3.0), 0.0]] * 3)
    target = torch.tensor([1, 0, 5])
    candidates = torch.tensor([[True, False, True], [True, True, False], [True, True, True]])
    # row 0: -log(1 - 0.2) twice; row 1: token 0 is the truth, so only -log(1 - 0.6); row 2: nothing
    expected = -2 * math.log(0.8) - math.log(0.4)
    assert unlikelihood(logits, candidates, target, pad_id=5).item() == pytest.approx(expected)
    # its gradient pushes the candidates down: one step of descent lowers their probability
    x = logits.clone().requires_grad_()
    unlikelihood(x, candidates, target, pad_id=5).backward()
    after = (x - 0.1 * x.grad).softmax(-1)
    assert after[0, 0] < 0.2 and after[0, 2] < 0.2 and after[1, 1] < 0.6 and not x.grad[2].any()


@pytest.mark.parametrize("rows", [(3, 5), (700, 3)])  # one chunk; several chunks of rows (V = 3000: 349 a chunk)
def test_the_fused_loss_and_its_gradient_equal_log_softmax_in_float64(rows):
    """Both sums and d/d logits of any mix of them, against the naive form in float64 (and padding gets none)."""
    g = torch.Generator().manual_seed(1)
    vocab = 11 if rows == (3, 5) else 3000
    logits = (3 * torch.randn(*rows, vocab, generator=g, dtype=torch.float64)).requires_grad_()
    target = torch.randint(0, vocab, rows, generator=g)
    target[0, :2] = 0  # padding
    loss_sum, nll_sum = fused_smoothed_cross_entropy(logits, target, epsilon=0.1, pad_id=0)
    (0.7 * loss_sum + 0.2 * nll_sum).backward()
    ours, logits.grad = logits.grad, None
    log_probs = logits.log_softmax(-1)
    real = target != 0
    nll = -log_probs.gather(-1, target.unsqueeze(-1)).squeeze(-1)[real].sum()
    loss = 0.9 * nll + 0.1 * -log_probs.mean(-1)[real].sum()
    (0.7 * loss + 0.2 * nll).backward()
    torch.testing.assert_close(loss_sum.double(), loss, rtol=1e-6, atol=0)  # the sums accumulate in float32
    torch.testing.assert_close(nll_sum.double(), nll, rtol=1e-6, atol=0)
    torch.testing.assert_close(ours, logits.grad, rtol=1e-5, atol=1e-6)  # float32 inside
    assert ours[0, :2].abs().max() == 0


def test_the_loss_of_bfloat16_logits_is_computed_in_float32():
    g = torch.Generator().manual_seed(2)
    logits = torch.randn(6, 50, generator=g).to(torch.bfloat16).requires_grad_()
    target = torch.randint(1, 50, (6,), generator=g)
    out = label_smoothed_cross_entropy(logits, target, epsilon=0.1, pad_id=0)
    out.loss.backward()
    exact = logits.detach().double().requires_grad_()
    ref = F.cross_entropy(exact, target, label_smoothing=0.1, reduction="sum")
    ref.backward()
    assert out.loss.dtype == torch.float32 and logits.grad.dtype == torch.bfloat16
    torch.testing.assert_close(out.loss.double(), ref, rtol=1e-6, atol=0)  # the same bf16 inputs, summed in fp32
    torch.testing.assert_close(logits.grad.double(), exact.grad, rtol=1e-2, atol=1e-3)  # the gradient rounded to bf16
