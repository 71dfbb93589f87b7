"""Self-contained: one-state episodic chain; TD target with zeroing after vs before target computation."""
import torch


def _run(zero_before):
    torch.manual_seed(0)
    gamma, reward = 0.99, 1.0
    q = torch.zeros(2, requires_grad=True)  # Q(s, a) for a single state, two actions
    opt = torch.optim.SGD([q], lr=0.1)
    for _ in range(2000):
        dones = torch.tensor([True, True, True, True])  # every transition ends the episode
        acts = torch.tensor([0, 1, 0, 1])
        q_next = q.detach().expand(4, 2).clone()  # next state is the (reset) start state
        idx = torch.arange(4)
        max_a = torch.argmax(q.detach().expand(4, 2), dim=1)
        if zero_before:
            q_next[dones] = 0.0
            target = reward + gamma * q_next[idx, max_a]
        else:
            target = reward + gamma * q_next[idx, max_a]
            q_next[dones] = 0.0
        loss = ((q[acts] - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return q.detach().max().item()


def _check() -> str:
    bad, good = _run(False), _run(True)
    assert bad > 10 * good and abs(good - 1.0) < 0.05, (bad, good)
    return f"one-step episodes with reward 1: Q -> {bad:.1f} when zeroed after the target, {good:.3f} when zeroed before"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
