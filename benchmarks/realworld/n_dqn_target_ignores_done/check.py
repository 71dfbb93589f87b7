"""Self-contained: a 5-step episodic chain (reward 1 on the last step, then reset) learned by a small Q-network,
with and without masking the bootstrap term on terminal transitions."""

import torch
import torch.nn.functional as F
from torch import nn

N_STATES, GAMMA = 5, 0.99


def _transitions():
    s = torch.arange(N_STATES)
    nxt = (s + 1) % N_STATES  # after the terminal step the env resets to state 0
    r = (s == N_STATES - 1).float()
    done = (s == N_STATES - 1).float()
    return s, nxt, r, done


def _run(mask_done):
    torch.manual_seed(0)
    online = nn.Sequential(nn.Embedding(N_STATES, 16), nn.Tanh(), nn.Linear(16, 2))
    target = nn.Sequential(nn.Embedding(N_STATES, 16), nn.Tanh(), nn.Linear(16, 2))
    target.load_state_dict(online.state_dict())
    opt = torch.optim.Adam(online.parameters(), lr=2e-2)
    s, nxt, r, done = _transitions()
    a = torch.zeros(N_STATES, dtype=torch.long)
    losses = []
    for step in range(700):
        q = online(s).gather(1, a.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            nq = target(nxt).max(1).values
            y = r + GAMMA * nq * (1.0 - done) if mask_done else r + GAMMA * nq
        loss = F.smooth_l1_loss(q, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        if step % 10 == 0:
            target.load_state_dict(online.state_dict())
    with torch.no_grad():
        qv = online(s).max(1).values
    return qv, losses


def _check() -> str:
    bad_q, bad_l = _run(False)
    ok_q, ok_l = _run(True)
    assert abs(ok_q[-1].item() - 1.0) < 0.1, ok_q
    assert bad_q[-1].item() > 4.0 and bad_q.max().item() > 4.0, bad_q
    assert max(bad_l[300:]) > 5 * max(ok_l[300:]), (max(bad_l[300:]), max(ok_l[300:]))
    return (f"no done mask: Q(last state) {bad_q[-1]:.2f} and still climbing (max TD loss after warm-up {max(bad_l[300:]):.3f}); "
            f"masked: Q(last state) {ok_q[-1]:.2f} (true value 1.0)")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
