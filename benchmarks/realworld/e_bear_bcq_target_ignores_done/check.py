"""Fitted Q evaluation on a 5-step chain (reward 1 per step, the episode resets after step 5), with and
without the done mask in the target, as in the diff."""

import torch
import torch.nn.functional as F

GAMMA = 0.9


def _transitions():
    states = torch.arange(5)
    next_states = (states + 1) % 5  # after the last step the next observation is the reset state
    done = (states == 4).float()
    return F.one_hot(states, 5).float(), F.one_hot(next_states, 5).float(), torch.ones(5), done


def _fit(use_done: bool) -> torch.Tensor:
    torch.manual_seed(0)
    critic = torch.nn.Linear(5, 1)
    target = torch.nn.Linear(5, 1)
    target.load_state_dict(critic.state_dict())
    opt = torch.optim.Adam(critic.parameters(), lr=0.05)
    s, s2, r, done = _transitions()
    for step in range(1500):
        with torch.no_grad():
            boot = target(s2).squeeze(1)
            y = r + (1 - done) * GAMMA * boot if use_done else r + GAMMA * boot
        loss = F.mse_loss(critic(s).squeeze(1), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            target.load_state_dict(critic.state_dict())
    with torch.no_grad():
        return critic(s).squeeze(1)


def _check() -> str:
    bug, ok = _fit(False), _fit(True)
    assert bug[4] > 6.0 and bug[0] > 8.0, bug
    assert abs(ok[4] - 1.0) < 0.1 and abs(ok[0] - 4.0951) < 0.2, ok
    return f"Q(last step) {bug[4]:.2f} without the done mask vs {ok[4]:.2f} with it; Q(first) {bug[0]:.2f} vs {ok[0]:.2f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
