"""Fit the critic to the TD target built as in target.py, and to the same target with log-probs summed over actions."""
import importlib.util
import os
import warnings

import torch

_HERE = os.path.dirname(os.path.abspath(__file__))


def _load():
    spec = importlib.util.spec_from_file_location("u_sac_target", os.path.join(_HERE, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit(mod, target, inputs, steps=400):
    torch.manual_seed(0)
    critic = mod.Critic()
    opt = torch.optim.Adam(critic.parameters(), lr=3e-3)
    for _ in range(steps):
        opt.zero_grad()
        loss = mod.critic_loss(critic(*inputs), target)
        loss.backward()
        opt.step()
    return critic(*inputs).detach(), loss.item()


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    (obs, act), bad_target = t["batch"]
    q0 = t["model"](obs, act)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        mod.critic_loss(q0, bad_target)
    warned = any("target size" in str(x.message) for x in w)
    # intended target: joint log-prob of the 4-D action (sum over dims) -> (B, 1)
    obs_, act_, rew, obs_next, done, g = mod.make_batch()
    torch.manual_seed(0)
    critic0, tc, actor = mod.Critic(), mod.Critic(), mod.Actor()
    tc.load_state_dict(critic0.state_dict())
    with torch.no_grad():
        a_next, logp = actor.sample(obs_next, g)
        good_target = rew.unsqueeze(1) + 0.99 * (1 - done.unsqueeze(1)) * (tc(obs_next, a_next) - 0.2 * logp.sum(1, keepdim=True))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        q_bad, loss_bad = _fit(mod, bad_target, (obs, act))
    q_good, loss_good = _fit(mod, good_target, (obs, act))
    gap = (q_bad - good_target).abs().mean().item()
    fit_err = (q_good - good_target).abs().mean().item()
    assert tuple(bad_target.shape) == (len(obs), 4) and tuple(q0.shape) == (len(obs), 1), (bad_target.shape, q0.shape)
    assert warned
    assert loss_bad > 5 * loss_good and gap > 5 * fit_err, (loss_bad, loss_good, gap, fit_err)
    return (f"TD target shape {tuple(bad_target.shape)} vs Q {tuple(q0.shape)} (broadcast warning); after 400 steps the "
            f"critic's loss plateaus at {loss_bad:.3f} (vs {loss_good:.4f} with a (B,1) target) and Q is off the "
            f"soft Bellman target by {gap:.3f} on average (vs {fit_err:.3f})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
