"""Self-contained: CleanRL-style GAE on a rollout where the dones buffer was overwritten with post-step flags."""

import torch


def _gae(rewards, values, dones, next_value, next_done, gamma=0.99, lam=0.95):
    n = rewards.shape[0]
    adv = torch.zeros_like(rewards)
    last = torch.zeros_like(rewards[0])
    for t in reversed(range(n)):
        if t == n - 1:
            nonterminal, next_v = 1.0 - next_done, next_value
        else:
            nonterminal, next_v = 1.0 - dones[t + 1], values[t + 1]
        delta = rewards[t] + gamma * next_v * nonterminal - values[t]
        last = delta + gamma * lam * nonterminal * last
        adv[t] = last
    return adv


def _rollout(post_step_write):
    """One env, 3 steps; the action at t=1 ends the episode (a failure, reward -5); obs[2] is a fresh reset state."""
    rewards = torch.tensor([[1.0], [-5.0], [1.0]])
    values = torch.tensor([[10.0], [1.0], [100.0]])  # the critic values the reset state highly
    pre_step_done = torch.tensor([[0.0], [0.0], [1.0]])  # CleanRL: dones[t] = obs[t] starts a new episode
    post_step_done = torch.tensor([[0.0], [1.0], [0.0]])  # what envs.step() returned at each t
    dones = post_step_done if post_step_write else pre_step_done
    return _gae(rewards, values, dones, next_value=torch.tensor([100.0]), next_done=torch.tensor([0.0]))


def _check() -> str:
    bad = _rollout(True)
    ok = _rollout(False)
    # the terminating action (t=1): correct advantage is r - V = -5 - 1 = -6 (no bootstrap)
    assert abs(ok[1].item() - (-6.0)) < 1e-4, ok[1]
    assert bad[1].item() > 80, bad[1]
    return (
        f"advantage of the action that ended the episode: {bad[1].item():+.1f} with the post-step dones write "
        f"(bootstraps V(reset)=100), {ok[1].item():+.1f} with the pre-step dones"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
