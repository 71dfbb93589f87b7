"""Self-contained: a contextual two-armed bandit trained with the actor-critic loss, log_prob [T] * td [T,1]."""

import torch
import torch.nn.functional as F
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 2))
        self.v = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))


def _run(fixed):
    torch.manual_seed(0)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(1)
    rewards = []
    for step in range(150):
        s = torch.randn(256, 4, generator=g)
        m = torch.distributions.Categorical(logits=net.pi(s))
        a = m.sample()
        r = (a == (s[:, 0] > 0).long()).float()  # right arm depends on the state
        v_t = r.unsqueeze(1)  # [T, 1] like the buffer of discounted returns
        values = net.v(s)  # [T, 1]
        td = v_t - values
        lp = m.log_prob(a)  # [T]
        adv = td.detach().squeeze(1) if fixed else td.detach()
        exp_v = lp * adv + 0.005 * m.entropy()
        loss = (-exp_v + td.pow(2)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        rewards.append(r.mean().item())
    return sum(rewards[:20]) / 20, sum(rewards[-50:]) / 50


def _check() -> str:
    assert (torch.zeros(8) * torch.zeros(8, 1)).shape == (8, 8)
    bad0, bad1 = _run(False)
    ok0, ok1 = _run(True)
    assert bad1 < 0.7 and ok1 > 0.85, (bad1, ok1)
    return (f"[T]*[T,1] actor term: mean reward {bad0:.2f} -> {bad1:.2f} after 150 updates; "
            f"per-step advantage: {ok0:.2f} -> {ok1:.2f}")

def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

