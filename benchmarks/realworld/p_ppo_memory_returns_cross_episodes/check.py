"""Self-contained: GAE over a memory holding two episodes, with and without stopping at the done flag."""

import torch


def _adv(rewards, values, dones, gamma, lam, stop_at_done):
    n = len(rewards)
    adv = torch.zeros(n)
    for t in range(n - 1):
        disc, a = 1.0, 0.0
        for k in range(t, n - 1):
            if stop_at_done:
                a += disc * (rewards[k] + gamma * values[k + 1] * (1 - dones[k]) - values[k])
            else:
                a += disc * (rewards[k] + gamma * values[k + 1] - values[k])
            disc *= gamma * lam
            if stop_at_done and dones[k]:
                break
        adv[t] = a
    return adv


def _check() -> str:
    torch.manual_seed(0)
    # episode 1: 8 steps ending in a failure (done); episode 2 starts at index 8 with a fresh, highly valued state
    rewards = [1.0] * 16
    dones = [0] * 16
    dones[7] = 1
    values = [8.0 - 0.9 * i for i in range(8)] + [20.0] * 8
    gamma, lam = 0.99, 0.95
    bad = _adv(rewards, values, dones, gamma, lam, stop_at_done=False)
    good = _adv(rewards, values, dones, gamma, lam, stop_at_done=True)
    term = 7
    assert bad[term] > 10 and good[term] < 0, (bad[term].item(), good[term].item())
    assert (bad[:8] - good[:8]).abs().max() > 5
    return (f"advantage of the episode-ending step: {bad[term]:.1f} when summing across the episode boundary, "
            f"{good[term]:.1f} when stopping at done")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
