"""Self-contained: a short chain episode that ends by a time limit. Stored without a done flag, the last
transition's TD target bootstraps from the next episode's start state, and its Q value drifts far above the
reward that the episode end actually gives."""

import torch


def _run(store_done: bool):
    torch.manual_seed(0)
    n_states, horizon, gamma = 5, 5, 0.95
    q = torch.zeros(n_states)  # one action: Q(s) of the only action
    buf = []
    s = 0
    for t in range(200):
        s2 = s + 1
        end = s2 == horizon  # time limit reached
        r = 1.0 if end else 0.0
        if end:
            s2 = 0  # the stored next state is the next episode's start state
        buf.append((s, r, s2, 1.0 if (end and store_done) else 0.0))
        s = s2
    g = torch.Generator().manual_seed(1)
    for it in range(3000):
        i = torch.randint(len(buf), (1,), generator=g).item()
        s, r, s2, d = buf[i]
        target = r + gamma * q[s2] * (1.0 - d)
        q[s] += 0.1 * (target - q[s])
    return q


def _check() -> str:
    bad = _run(store_done=False)
    ok = _run(store_done=True)
    # the last state's true value is the reward (1.0); without done it climbs towards 1/(1-gamma^5)
    assert bad[4].item() > 3.0 and abs(ok[4].item() - 1.0) < 0.05, (bad.tolist(), ok.tolist())
    assert bad[0].item() > 3 * ok[0].item(), (bad.tolist(), ok.tolist())
    return (
        f"truncation stored as non-terminal: Q(last)={bad[4]:.2f}, Q(start)={bad[0]:.2f} (reward at the end is 1.0); "
        f"stored as done: Q(last)={ok[4]:.2f}, Q(start)={ok[0]:.2f}"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
