import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ub_bindsnet_softmax_dim0_random_actions_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    policy = t["model"]
    states, targets = t["batch"]
    obs = states[:1]
    with torch.no_grad():
        counts = policy.spike_counts(obs)
    _, probs = mod.select_action(policy, obs)
    # every action gets "probability" 1 although the spike counts differ
    assert torch.allclose(probs, torch.ones_like(probs)), probs
    assert counts.max() - counts.min() > 0.5, counts
    # so sampling is uniform: the policy never prefers its best-scoring action
    torch.manual_seed(0)
    draws = torch.multinomial(probs.detach().expand(4000, -1), 1).flatten()
    freq = torch.bincount(draws, minlength=mod.N_ACTIONS).float() / len(draws)
    assert (freq - 0.25).abs().max() < 0.03, freq
    # and the episode update carries no gradient at all
    model = t["model"]
    model.zero_grad()
    per_state = torch.cat([model(states[i:i + 1]) for i in range(len(states))])
    t["loss_fn"](per_state, targets).backward()
    gnorm = sum(p.grad.norm() ** 2 for p in model.parameters() if p.grad is not None) ** 0.5
    assert float(gnorm) == 0.0, gnorm
    return (f"per-step action probabilities {probs.detach().flatten().tolist()} for spike counts "
            f"{[round(v, 1) for v in counts.flatten().tolist()]}; sampled action frequencies "
            f"{[round(v, 3) for v in freq.tolist()]}; REINFORCE gradient norm {float(gnorm):.1f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
