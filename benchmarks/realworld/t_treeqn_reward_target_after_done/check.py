"""Self-contained: a reward head trained on depth-d reward targets built with and without the done check."""

import torch
from torch import nn

EP_LEN, DEPTH = 4, 3
EP_REWARDS = [0.5, 0.0, 0.0, 1.0]  # the next episode starts with a +0.5 step


def _targets(rewards, dones, depth, check_done):
    n_envs, T = rewards.shape
    targets = torch.zeros(n_envs, T, depth)
    for t in range(T):
        if check_done:
            alive = torch.ones(n_envs)
            for d in range(depth):
                if t + d >= T:
                    break
                targets[:, t, d] = rewards[:, t + d] * alive
                alive = alive * (1.0 - dones[:, t + d])
        else:
            seq = rewards[:, t:t + depth]
            targets[:, t, :seq.shape[1]] = seq
    return targets


def _run(check_done):
    torch.manual_seed(0)
    n_eps = 6
    rewards = torch.tensor(EP_REWARDS * n_eps).unsqueeze(0)
    dones = torch.tensor(([0.0] * (EP_LEN - 1) + [1.0]) * n_eps).unsqueeze(0)
    pos = torch.arange(EP_LEN * n_eps) % EP_LEN
    obs = torch.eye(EP_LEN)[pos]
    tgt = _targets(rewards, dones, DEPTH, check_done)[0]
    T = obs.shape[0] - DEPTH  # only steps whose full horizon lies in the buffer
    head = nn.Sequential(nn.Linear(EP_LEN, 32), nn.ReLU(), nn.Linear(32, DEPTH))
    opt = torch.optim.Adam(head.parameters(), lr=1e-2)
    for _ in range(300):
        loss = ((head(obs[:T]) - tgt[:T]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        return head(torch.eye(EP_LEN)[EP_LEN - 1]), loss.item()


def _check() -> str:
    bad, bad_loss = _run(False)
    good, good_loss = _run(True)
    # at the terminal step: d=0 is the final reward, d>=1 lie after the episode ended and must be 0
    assert abs(good[1].item()) < 0.1 and abs(good[0].item() - 1.0) < 0.1, good.tolist()
    assert bad[1].item() > 0.4, bad.tolist()
    return (f"reward head at the terminal step predicts {bad[1].item():.2f} one step after the episode ended "
            f"(0.00 with the done check: {good[1].item():.2f}); fit loss {bad_loss:.4f} vs {good_loss:.4f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
