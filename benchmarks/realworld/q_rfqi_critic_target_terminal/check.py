"""Self-contained: fitted Q on a short episodic chain whose goal gives reward 1 and ends the episode."""
import torch
import torch.nn.functional as F


def _fit(use_not_done):
    torch.manual_seed(0)
    n, gamma, rho = 5, 0.99, 0.1
    # transitions: state s -> s+1 with reward 0; s = n-1 -> goal (terminal) with reward 1
    s = torch.arange(n)
    s_next = torch.clamp(s + 1, max=n - 1)
    r = torch.zeros(n)
    r[-1] = 1.0
    not_done = torch.ones(n)
    not_done[-1] = 0.0
    q = torch.zeros(n, requires_grad=True)
    opt = torch.optim.SGD([q], lr=0.5)
    for _ in range(400):
        with torch.no_grad():
            nxt = q[s_next]
            robust = (1 - rho) * nxt + rho * q.min()
            target = r + (not_done if use_not_done else 1.0) * gamma * robust
        loss = F.mse_loss(q[s], target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return q.detach()


def _check() -> str:
    bad = _fit(False)
    ok = _fit(True)
    assert bad.max().item() > 3.0, bad
    assert ok.max().item() <= 1.01, ok
    return (f"max Q with no terminal masking: {bad.max().item():.2f} (largest possible return is 1.0); "
            f"with masking: {ok.max().item():.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
