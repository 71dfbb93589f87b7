import torch
import torch.nn as nn
import torch.nn.functional as F


def _train(reg_weight: float):
    torch.manual_seed(0)
    net = nn.Linear(6, 4)  # predicts the MVC weights
    cage_deformed = nn.Parameter(torch.randn(4, 3))  # predicted deformed cage (trained through the data term)
    opt = torch.optim.Adam([*net.parameters(), cage_deformed], lr=1e-2)
    x = torch.randn(32, 6)
    target = torch.randn(32, 3)
    for _ in range(100):
        opt.zero_grad()
        weights = torch.softmax(net(x), dim=-1)
        weights = weights.detach()
        deformed = weights @ cage_deformed
        reg = (weights**2).sum(-1).mean()  # the WREG-style term on the detached weights
        loss = F.mse_loss(deformed, target) + reg_weight * reg
        loss.backward()
        opt.step()
    return net.weight.detach().clone(), cage_deformed.detach().clone(), float(loss)


def _check() -> str:
    w0, c0, l0 = _train(0.0)
    w1, c1, l1 = _train(1000.0)
    assert torch.equal(w0, w1) and torch.equal(c0, c1) and l1 > l0 + 100, (l0, l1)
    assert not torch.equal(c0, _start_cage()), "the data term should still train the cage"
    return f"reg weight 0 vs 1000: identical trained parameters, logged loss {l0:.3f} vs {l1:.1f}"


def _start_cage():
    torch.manual_seed(0)
    nn.Linear(6, 4)
    return torch.randn(4, 3)


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
