import importlib.util
import os

import torch
from torch.distributions import Independent, Normal


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wa_torchrl_logprob_adv_outer_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _mean_err(mod, policy, seed):
    obs, _ = mod.rollout(policy, n=256, seed=seed)
    with torch.no_grad():
        loc, _ = policy(obs)
    return float((loc - obs[:, :1]).pow(2).mean())


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    policy, loss_fn = t["model"], t["loss_fn"]
    obs, (action, adv) = t["batch"]
    loc, scale = policy(obs)
    lp = Independent(Normal(loc, scale), 1).log_prob(action)
    prod_shape = tuple((lp * adv).shape)
    loss = loss_fn((loc, scale), (action, adv))
    # the (n, n) mean collapses to mean(advantage) * mean(log_prob): per-sample credit is gone
    collapsed = -(adv.mean() * lp.mean())
    per_sample = -(lp * adv.squeeze(-1)).mean()
    assert prod_shape == (adv.shape[0], adv.shape[0]), prod_shape
    assert torch.allclose(loss, collapsed, atol=1e-6) and not torch.allclose(loss, per_sample, atol=1e-3)

    # short training: fresh rollouts each step with the user's loss
    torch.manual_seed(0)
    before = _mean_err(mod, policy, seed=123)
    opt = t["optimizer"](policy.parameters())
    for step in range(150):
        o, targ = mod.rollout(policy, seed=1000 + step)
        opt.zero_grad()
        loss_fn(policy(o), targ).backward()
        opt.step()
    after = _mean_err(mod, policy, seed=123)
    assert after > 0.5 * before, (before, after)
    return (f"log_prob*advantage has shape {prod_shape}; loss = {loss.item():.4f} equals "
            f"-mean(adv)*mean(logp) = {collapsed.item():.4f} (per-sample REINFORCE: {per_sample.item():.4f}); "
            f"policy mean error {before:.3f} -> {after:.3f} after 150 updates")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
