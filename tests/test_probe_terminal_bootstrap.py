"""terminal_bootstrap: TD losses that read the next state at episode ends, next to the same losses masked.

Each form comes as a buggy twin (no `(1 - done)` factor) and a healthy one; the probe must not fire on
batches that merely look similar (a dynamics model regressing s', a siamese pair with a 0/1 label).
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from debug_agent.schemas import Target

from .test_probes_by_design import run

GAMMA = 0.9
N, OBS, ACTIONS = 96, 5, 3


def _transitions(bool_done: bool = False):
    g = torch.Generator().manual_seed(0)
    s = torch.randn(N, OBS, generator=g)
    s2 = s + 0.1 * torch.randn(N, OBS, generator=g)
    done = torch.rand(N, generator=g) < 0.2
    a = torch.randint(0, ACTIONS, (N,), generator=g)
    r = torch.randn(N, generator=g)
    return s, a, r, s2, (done if bool_done else done.float())


def _qnet() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(OBS, 32), nn.ReLU(), nn.Linear(32, ACTIONS))


class TwoHeads(nn.Module):
    """model(s, s') -> (Q(s), Q(s')): the next state goes in as an input."""

    def __init__(self) -> None:
        super().__init__()
        self.q = _qnet()

    def forward(self, s, s2):
        return self.q(s), self.q(s2)


def _dqn_in_targets(masked: bool, bool_done: bool = False) -> Target:
    """A target network in the loss's closure reads s' from the targets."""
    s, a, r, s2, d = _transitions(bool_done)
    online, frozen = _qnet(), _qnet()

    def td_loss(q, targets):
        actions, rewards, next_s, done = targets
        with torch.no_grad():
            nxt = frozen(next_s).max(1).values  # (B,)
            alive = 1.0 - done.float() if masked else 1.0
            y = rewards + GAMMA * alive * nxt
        return F.smooth_l1_loss(q.gather(1, actions[:, None]).squeeze(1), y)

    return Target(model=online, batch=(s, (a, r, s2, d)), loss_fn=td_loss)


def _dqn_in_inputs(masked: bool) -> Target:
    s, a, r, s2, d = _transitions()

    def td_loss(out, targets):
        q, q_next = out  # (B, A) each
        actions, rewards, done = targets
        not_done = (1 - done) if masked else torch.ones_like(done)
        y = rewards + GAMMA * not_done * q_next.detach().max(1).values
        return F.mse_loss(q.gather(1, actions[:, None]).squeeze(1), y)

    return Target(model=TwoHeads(), batch=((s, s2), (a, r, d)), loss_fn=td_loss)


def _critic_with_dict(masked: bool) -> Target:
    """Dict targets and a 'mask' flag stored as 1 - done (0.0 at the terminal step)."""
    s, _, r, s2, d = _transitions()
    critic = nn.Sequential(nn.Linear(OBS, 16), nn.Tanh(), nn.Linear(16, 1))

    def loss(v, t):
        with torch.no_grad():
            boot = critic(t["next_obs"]).squeeze(-1)
            y = t["reward"] + GAMMA * (t["mask"] * boot if masked else boot)
        return F.mse_loss(v.squeeze(-1), y)

    return Target(model=critic, batch=(s, {"reward": r, "next_obs": s2, "mask": 1 - d}), loss_fn=loss)


FORMS = {
    "target_network_in_the_loss": _dqn_in_targets,
    "next_state_as_input": _dqn_in_inputs,
    "dict_with_mask_flag": _critic_with_dict,
    "bool_done": lambda masked: _dqn_in_targets(masked, bool_done=True),
}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_bootstrap_across_episode_ends_is_found(form):
    result = run("terminal_bootstrap", FORMS[form](masked=False))
    assert result.status == "failed" and result.outcomes == ["bootstraps_terminal"], result.measurements


@pytest.mark.parametrize("form", sorted(FORMS))
def test_masked_bootstrap_passes(form):
    result = run("terminal_bootstrap", FORMS[form](masked=True))
    assert result.status == "passed" and result.outcomes == ["terminal_masked"], result.measurements


def test_batches_that_only_look_like_transitions_are_not_judged():
    s, a, r, s2, d = _transitions()
    dynamics = nn.Linear(OBS, OBS)  # predicts s' from s: s' is a regression target, no network reads it in the loss
    world = Target(model=dynamics, batch=(s, (s2, r, d)), loss_fn=lambda out, t: F.mse_loss(out, t[0]))
    assert run("terminal_bootstrap", world).status == "not_applicable"
    siamese = Target(
        model=TwoHeads(),
        batch=((s, s2), d),  # a 0/1 "same pair" label and nothing else per row
        loss_fn=lambda out, y: F.binary_cross_entropy_with_logits((out[0] * out[1]).sum(1), y),
    )
    assert run("terminal_bootstrap", siamese).status == "not_applicable"
    classifier = Target(model=_qnet(), batch=(s, a), loss_fn=F.cross_entropy)
    assert run("terminal_bootstrap", classifier).status == "not_applicable"
