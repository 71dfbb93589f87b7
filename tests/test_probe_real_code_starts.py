"""Starts that real code makes on purpose or by accident, each with its twin.

- An optimizer built on another instance of the model (the model rebuilt after the optimizer) is the
  user's bug, found by step_audit; a factory that closes over the target's own model is our protocol's
  problem, an error that is never evidence.
- Integer token ids are names, not magnitudes: data_audit does not call them unscaled; raw uint8 pixels
  and raw float features still are.
- A zero-initialised layer (a zero head) is a deliberate start: its gradient-to-weight ratio is not an
  explosion and the exactly-zero gradient behind it is not vanishing.
- A gradient large next to its weights explodes only where the optimizer's step grows with it: plain SGD
  (lr / (1 - momentum)), not Adam.
- Trainable state kept beside the model (learned loss weights, a class-weighted criterion, a bare
  nn.Parameter the optimizer factory adds) is copied for the probes; tensors of it that get gradients
  but never move are step_audit's finding, and the user's own tensors stay untouched.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target


def run(name: str, target: Target) -> ProbeResult:
    probe_registry()
    return P.execute(name, target, P.ProbeContext(seed=0, budget_s=120), {})


def _mlp(seed: int = 0) -> nn.Module:
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))


def _batch() -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return torch.randn(16, 8, generator=g), torch.randint(0, 3, (16,), generator=g)


# --- optimizer built on another model instance ----------------------------------------------------------


def test_an_optimizer_over_another_model_instance_is_the_finding() -> None:
    stale = torch.optim.SGD(_mlp(seed=1).parameters(), lr=0.1)  # built before the model was made again
    target = Target(model=_mlp(), batch=_batch(), loss_fn=F.cross_entropy, optimizer=lambda params: stale)
    result = run("step_audit", target)
    assert result.status == "failed" and result.outcomes == ["optimizer_misses_params"], result.summary
    assert "another instance of the model" in result.findings[0].text
    assert run("overfit_one_batch", target).status == "error"  # training it would train something else


def test_a_factory_closing_over_the_targets_own_model_is_an_error_not_evidence() -> None:
    model = _mlp()
    own = torch.optim.SGD(model.parameters(), lr=0.1)  # the user's real run would train this very model
    result = run("step_audit", Target(model=model, batch=_batch(), loss_fn=F.cross_entropy, optimizer=lambda p: own))
    assert result.status == "error" and not result.outcomes
    assert "make it use its argument" in result.summary


def test_a_factory_that_uses_its_argument_passes() -> None:
    target = Target(
        model=_mlp(), batch=_batch(), loss_fn=F.cross_entropy, optimizer=lambda p: torch.optim.SGD(p, lr=0.1)
    )
    result = run("step_audit", target)
    assert result.status == "passed" and "optimizer_misses_params" not in result.outcomes, result.summary


# --- integer ids are not magnitudes ---------------------------------------------------------------------


class _Bag(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(500, 8)
        self.out = nn.Linear(8, 3)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:  # (B, T) ids -> (B, 3)
        return self.out(self.emb(ids).mean(1))


def _ids(n: int, seed: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, 500, (n, 6), generator=g)  # mean about 250, std about 144
    return ids, ids[:, 0] % 3


def test_token_ids_are_not_called_unscaled() -> None:
    target = Target(model=_Bag(), batch=_ids(16, 0), loss_fn=F.cross_entropy, train_data=_ids(256, 1))
    result = run("data_audit", target)
    assert "features_unscaled" not in result.outcomes and "features_scaled" not in result.outcomes
    assert result.measurements["integer_ids"] is True


def test_raw_pixels_are_still_called_unscaled() -> None:
    g = torch.Generator().manual_seed(0)
    pixels = torch.randint(0, 256, (256, 1, 4, 4), generator=g, dtype=torch.uint8)  # raw 0-255
    model = nn.Sequential(nn.Flatten(), nn.Linear(16, 3))

    def call(m: nn.Module, x: torch.Tensor) -> torch.Tensor:
        return m(x.float())

    target = Target(
        model=model,
        batch=(pixels[:16], torch.zeros(16, dtype=torch.long)),
        loss_fn=F.cross_entropy,
        call_model=call,
        train_data=(pixels, torch.arange(256) % 3),
    )
    assert "features_unscaled" in run("data_audit", target).outcomes


# --- a zero-initialised head ----------------------------------------------------------------------------


def _deep(zero_head: bool, gain: float = 1.0) -> nn.Module:
    torch.manual_seed(0)
    layers: list[nn.Module] = []
    for _ in range(4):
        lin = nn.Linear(16, 16)
        nn.init.normal_(lin.weight, std=gain / 16**0.5)
        layers += [lin, nn.ReLU()]
    head = nn.Linear(16, 3)
    if zero_head:
        nn.init.zeros_(head.weight)
        nn.init.zeros_(head.bias)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(), *layers, head)


def test_a_zero_initialised_head_is_neither_exploding_nor_vanishing() -> None:
    result = run("activations", Target(model=_deep(zero_head=True), batch=_batch(), loss_fn=F.cross_entropy))
    assert not {"exploding_grads", "vanishing_grads", "step_too_large"} & set(result.outcomes), result.summary
    assert any("zero-initialised" in f.text for f in result.findings)


def _big_steps(optimizer: object) -> Target:
    model = _deep(zero_head=False)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, nn.Linear):
                m.weight.mul_(0.02)  # tiny weights next to their gradients
    return Target(model=model, batch=_batch(), loss_fn=F.cross_entropy, optimizer=optimizer)


def test_a_plain_sgd_step_larger_than_the_weights_is_too_large() -> None:
    result = run("activations", _big_steps(lambda p: torch.optim.SGD(p, lr=0.5, momentum=0.9)))
    assert "step_too_large" in result.outcomes and result.status == "failed", result.summary
    assert result.measurements["max_step_to_weight"] > 1


def test_the_same_gradients_under_adam_wipe_nothing_out() -> None:
    """Adam's step is about lr whatever the gradient's size: a large gradient-to-weight ratio is no alarm."""
    result = run("activations", _big_steps(lambda p: torch.optim.Adam(p, lr=1e-3)))
    assert "max_step_to_weight" not in result.measurements, result.summary
    assert result.measurements["max_grad_to_weight"] > 1


# --- evaluation helpers that take the inputs alone -----------------------------------------------------


def test_an_eval_fn_taking_the_inputs_alone_is_called_with_them() -> None:
    model = nn.Sequential(nn.Linear(8, 16), nn.Dropout(0.5), nn.Linear(16, 3))

    def evaluate(model: nn.Module, x: torch.Tensor) -> torch.Tensor:  # no model.eval(): dropout stays on
        with torch.no_grad():
            return model(x)

    result = run("mode_audit", Target(model=model, batch=_batch(), loss_fn=F.cross_entropy, eval_fn=evaluate))
    assert result.status == "failed" and "eval_in_train_mode" in result.outcomes, result.summary

    def evaluate_properly(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
        model.eval()
        with torch.no_grad():
            return model(x)

    healthy = Target(model=model, batch=_batch(), loss_fn=F.cross_entropy, eval_fn=evaluate_properly)
    assert run("mode_audit", healthy).status == "passed"



# --- a softmax over one value; inputs that are all the same -------------------------------------------


class _Pool(nn.Module):
    def __init__(self, over_tokens: bool) -> None:
        super().__init__()
        self.score = nn.Linear(8, 1)
        self.head = nn.Linear(8, 3)
        self.dim = 1 if over_tokens else -1

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # (B, N, 8) -> (B, 3)
        a = self.score(x).softmax(dim=self.dim)  # (B, N, 1): over the N tokens, or over the size-1 axis
        return self.head((a * x).sum(1))


def _tokens_batch() -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return torch.randn(16, 6, 8, generator=g), torch.randint(0, 3, (16,), generator=g)


def test_a_softmax_over_an_axis_of_size_one_is_flagged() -> None:
    result = run("shape_audit", Target(model=_Pool(over_tokens=False), batch=_tokens_batch(), loss_fn=F.cross_entropy))
    assert result.status == "failed" and "softmax_over_one" in result.outcomes, result.summary
    healthy = run("shape_audit", Target(model=_Pool(over_tokens=True), batch=_tokens_batch(), loss_fn=F.cross_entropy))
    assert healthy.status == "passed" and "softmax_over_one" not in healthy.outcomes, healthy.summary


def test_inputs_that_are_all_the_same_are_the_finding_not_leakage() -> None:
    """Pixels floor-divided by 255 are all 0: identical rows would otherwise read as overlap and unlearnable labels."""
    g = torch.Generator().manual_seed(0)
    raw = torch.randint(0, 255, (256, 1, 4, 4), generator=g).float()
    y = torch.arange(256) % 2
    model = nn.Sequential(nn.Flatten(), nn.Linear(16, 2))
    zeros = Target(
        model=model,
        batch=(torch.div(raw[:16], 255, rounding_mode="floor"), y[:16]),
        loss_fn=F.cross_entropy,
        train_data=(torch.div(raw, 255, rounding_mode="floor"), y),
        val_data=(torch.div(raw[:64], 255, rounding_mode="floor"), y[:64]),
    )
    result = run("data_audit", zeros)
    assert "inputs_constant" in result.outcomes and "splits_overlap" not in result.outcomes, result.outcomes
    scaled = Target(model=model, batch=(raw[:16] / 255, y[:16]), loss_fn=F.cross_entropy, train_data=(raw / 255, y))
    assert "inputs_constant" not in run("data_audit", scaled).outcomes


def test_extra_tensors_beside_the_models_are_not_another_instance() -> None:
    """A learnable tensor in the optimizer next to the model's parameters is copied with them, not the finding."""
    weights = nn.Parameter(torch.ones(2))

    def factory(params: object) -> torch.optim.Optimizer:
        return torch.optim.Adam([{"params": params}, {"params": [weights]}], lr=1e-3)

    result = run("step_audit", Target(model=_mlp(), batch=_batch(), loss_fn=F.cross_entropy, optimizer=factory))
    assert result.status == "passed" and "optimizer_misses_params" not in result.outcomes, result.summary
    assert torch.equal(weights.detach(), torch.ones(2)) and weights.grad is None


# --- trainable state the loss keeps outside the model ------------------------------------------------------


class _TaskWeights(nn.Module):
    """Learned per-task weights, kept beside the model as real code does (not one of its sub-modules)."""

    def __init__(self) -> None:
        super().__init__()
        self.log_vars = nn.Parameter(torch.zeros(2))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return (torch.exp(-self.log_vars) * torch.stack([a, b])).sum() + self.log_vars.sum()


def _two_task_target(weights: _TaskWeights, with_weights_in_optimizer: bool) -> Target:
    def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return weights(F.cross_entropy(out, y), out.pow(2).mean())

    def factory(params: object) -> torch.optim.Optimizer:
        extra = list(weights.parameters()) if with_weights_in_optimizer else []
        return torch.optim.Adam([{"params": params}, {"params": extra}], lr=1e-2)

    return Target(model=_mlp(), batch=_batch(), loss_fn=loss_fn, optimizer=factory)


def test_loss_weights_the_optimizer_never_holds_are_the_finding() -> None:
    weights = _TaskWeights()
    result = run("step_audit", _two_task_target(weights, with_weights_in_optimizer=False))
    assert result.status == "failed" and "outside_params_stuck" in result.outcomes, result.summary
    assert "params_updated" not in result.outcomes
    assert "(the optimizer does not hold them)" in result.findings[-1].text
    assert weights.log_vars.grad is None and not weights.log_vars.detach().any()  # the user's tensors untouched


def test_loss_weights_in_the_optimizer_train_on_the_probes_copy() -> None:
    weights = _TaskWeights()
    target = _two_task_target(weights, with_weights_in_optimizer=True)
    result = run("step_audit", target)
    assert result.status == "passed" and "outside_params_stuck" not in result.outcomes, result.summary
    assert run("overfit_one_batch", target).status == "passed"
    assert weights.log_vars.grad is None and not weights.log_vars.detach().any()
    again = run("step_audit", _two_task_target(weights, with_weights_in_optimizer=True))
    assert again.measurements == result.measurements  # each probe starts from the user's values


def test_a_loss_module_with_a_class_weight_buffer_is_copied_not_an_error() -> None:
    criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]))
    result = run("step_audit", Target(model=_mlp(), batch=_batch(), loss_fn=criterion))
    assert result.status == "passed", result.summary


def _td_target(bug: bool) -> Target:
    """A value head trained toward r + gamma * (1 - done) * V(s'), where V is the model itself (no target net)."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def td_loss(v: torch.Tensor, targets: tuple[torch.Tensor, ...]) -> torch.Tensor:
        r, s_next, alive = targets
        with torch.no_grad():
            v_next = model(s_next)  # the online model, read from the closure as real code does
            goal = r + 0.9 * alive + v_next if bug else r + 0.9 * alive * v_next
        return F.mse_loss(v, goal)

    g = torch.Generator().manual_seed(1)
    s = torch.randn(32, 4, generator=g)
    targets = (torch.rand(32, 1, generator=g), s + 0.1 * torch.randn(32, 4, generator=g), torch.ones(32, 1))
    opt = lambda params: torch.optim.Adam(params, lr=1e-2)  # noqa: E731
    return Target(model=model, batch=(s, targets), loss_fn=td_loss, optimizer=opt)


def test_a_loss_that_reads_the_model_itself_reads_the_probes_copy() -> None:
    healthy = _td_target(bug=False)
    before = [p.detach().clone() for p in healthy.model.parameters()]
    assert run("step_audit", healthy).status == "passed"
    assert run("overfit_one_batch", healthy).status == "passed"
    params = list(healthy.model.parameters())
    assert all(torch.equal(a, p.detach()) and p.grad is None for a, p in zip(before, params, strict=True))
    chasing = run("overfit_one_batch", _td_target(bug=True))  # the target climbs with the model: loss cannot fall
    assert chasing.status == "failed", chasing.summary


# --- a learning rate that stalls rather than diverges --------------------------------------------------------


def _relu_classifier(lr: float) -> Target:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 4))
    g = torch.Generator().manual_seed(0)
    x, y = torch.randn(32, 8, generator=g), torch.randint(0, 4, (32,), generator=g)
    return Target(model=model, batch=(x, y), loss_fn=F.cross_entropy, optimizer=lambda p: torch.optim.Adam(p, lr=lr))


def test_a_stall_that_a_ten_times_smaller_learning_rate_cures_is_the_learning_rate() -> None:
    """Adam at lr 1 overshoots into a plateau; the same optimizer at 0.1 memorises the batch (not capacity)."""
    high = run("overfit_one_batch", _relu_classifier(1.0))
    assert high.status == "failed" and high.outcomes == ["lr_stalls"], high.summary
    assert "10x smaller" in high.summary
    assert run("overfit_one_batch", _relu_classifier(0.1)).outcomes == ["converged"]


# --- a loss that checks what it is given ----------------------------------------------------------------------


def test_loss_coupling_keeps_probabilities_probabilities_and_a_loss_that_refuses_is_no_error() -> None:
    torch.manual_seed(0)
    head = nn.Sequential(nn.Linear(8, 1), nn.Sigmoid())
    x, y = torch.randn(16, 8), torch.randint(0, 2, (16, 1)).float()
    bce = run("loss_coupling", Target(model=head, batch=(x, y), loss_fn=F.binary_cross_entropy))
    assert bce.status == "passed", bce.summary

    def picky(out: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
        if (out.abs() > 1.5).any():  # real losses assert on degenerate inputs (boxes, probabilities)
            raise AssertionError("degenerate predictions")
        return F.mse_loss(out, t)

    refused = run("loss_coupling", Target(model=nn.Linear(8, 1), batch=(x, y * 0.1), loss_fn=picky))
    assert refused.status == "inconclusive" and "rejects" in refused.summary, refused.summary


# --- a model left in eval mode by an evaluation pass --------------------------------------------------------


def _left_in_eval(restore: bool) -> Target:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.3), nn.Linear(16, 3))
    model.eval()  # the evaluation pass before this epoch

    def step(m: nn.Module, batch: tuple, opt: torch.optim.Optimizer, loss_fn: object) -> torch.Tensor:
        if restore:
            m.train()
        opt.zero_grad()
        loss = F.cross_entropy(m(batch[0]), batch[1])
        loss.backward()
        opt.step()
        return loss

    return Target(model=model, batch=_batch(), loss_fn=F.cross_entropy, train_step=step)


def test_a_train_step_run_on_a_model_left_in_eval_mode_is_found() -> None:
    """With the user's own step, the copy keeps the mode the model has: the step must switch it back itself."""
    left = run("step_audit", _left_in_eval(restore=False))
    assert left.status == "failed" and "eval_mode_in_step" in left.outcomes, left.summary
    restored = run("step_audit", _left_in_eval(restore=True))
    assert "train_mode_in_step" in restored.outcomes and restored.status == "passed", restored.summary


class _DetachedPolicy(nn.Module):
    """Log-probabilities taken off the graph before the loss (item()/tensor() rebuilds in real RL code)."""

    def __init__(self) -> None:
        super().__init__()
        self.net = _mlp()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tensor(self.net(x).tolist(), requires_grad=True)  # (B, 3), cut from the network


def test_nothing_moving_for_want_of_any_gradient_is_the_cut_graph_not_a_missing_step() -> None:
    def no_step(m: nn.Module, batch: tuple, opt: torch.optim.Optimizer, loss_fn: object) -> torch.Tensor:
        opt.zero_grad()
        loss = F.cross_entropy(m(batch[0]), batch[1])
        loss.backward()
        return loss

    cut = run("step_audit", Target(model=_DetachedPolicy(), batch=_batch(), loss_fn=F.cross_entropy))
    assert "grad_path_cut" in cut.outcomes and "params_not_updated" not in cut.outcomes, cut.outcomes
    idle = run("step_audit", Target(model=_mlp(), batch=_batch(), loss_fn=F.cross_entropy, train_step=no_step))
    assert "params_not_updated" in idle.outcomes and "grad_path_cut" not in idle.outcomes, idle.outcomes


def test_a_learned_tensor_handed_over_in_a_list_is_copied_too() -> None:
    """`extra = [temperature]` closed over by the factory: the list is rebuilt around the probe's copy."""
    temperature = nn.Parameter(torch.ones(1))
    extra = [temperature]

    def loss(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(out / temperature, y)

    def factory(params: object) -> torch.optim.Optimizer:
        return torch.optim.Adam(list(params) + extra, lr=1e-2)  # type: ignore[call-overload]

    result = run("step_audit", Target(model=_mlp(), batch=_batch(), loss_fn=loss, optimizer=factory))
    assert result.status == "passed", result.summary
    assert torch.equal(temperature.detach(), torch.ones(1)) and temperature.grad is None


# --- a reshape whose new axis takes part of two old axes ------------------------------------------------------


class _Heads(nn.Module):
    """Self-attention over (B, T, 16) with 4 heads of 4; `bug` merges the heads by reshape without a permute."""

    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug = bug
        self.qkv, self.out = nn.Linear(16, 48), nn.Linear(16, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, 4, 4).permute(2, 0, 3, 1, 4)  # each (B, H, T, D)
        h = torch.softmax(q @ k.transpose(-2, -1) / 2.0, dim=-1) @ v  # (B, H, T, D)
        h = h.reshape(b, t, 16) if self.bug else h.transpose(1, 2).reshape(b, t, 16)
        return self.out(h).mean(1)


def test_a_reshape_that_mixes_heads_and_positions_is_flagged_and_the_transpose_is_not() -> None:
    batch = (torch.randn(8, 6, 16), torch.randint(0, 3, (8,)))
    bad = run("shape_audit", Target(model=_Heads(bug=True), batch=batch, loss_fn=F.cross_entropy))
    # The batch axis leads and stays whole: the mix is inside each example, which row independence cannot rule out.
    assert bad.status == "failed" and bad.outcomes == ["reshape_mixes_row_axes"], bad.summary
    assert "(8, 4, 6, 4)" in bad.findings[0].text and "inside each row" in bad.findings[0].text
    good = run("shape_audit", Target(model=_Heads(bug=False), batch=batch, loss_fn=F.cross_entropy))
    assert good.status == "passed" and not {"reshape_mixes_axes", "reshape_mixes_row_axes"} & set(good.outcomes)


class _SeqFirst(nn.Module):
    """A GRU that wants (T, B, C): `bug` views the (B, T, C) batch as (T, B, C), mixing examples and positions."""

    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug = bug
        self.rnn, self.head = nn.GRU(5, 8), nn.Linear(8, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (B, T, C)
        seq = x.view(x.shape[1], x.shape[0], -1) if self.bug else x.transpose(0, 1)  # (T, B, C)
        return self.head(self.rnn(seq)[0][-1])  # (B, 3)


def test_a_reshape_that_mixes_the_batch_axis_is_the_cross_row_kind() -> None:
    batch = (torch.randn(8, 6, 5), torch.randint(0, 3, (8,)))
    bad = run("shape_audit", Target(model=_SeqFirst(bug=True), batch=batch, loss_fn=F.cross_entropy))
    assert bad.status == "failed" and bad.outcomes == ["reshape_mixes_axes"], bad.summary
    good = run("shape_audit", Target(model=_SeqFirst(bug=False), batch=batch, loss_fn=F.cross_entropy))
    assert good.status == "passed", good.summary
