import torch
import torch.nn.functional as F


def _run(extra_sigmoid):
    torch.manual_seed(0)
    nu, ni, d = 60, 80, 16
    g = torch.Generator().manual_seed(3)
    pu, pi = torch.randn(nu, 4, generator=g), torch.randn(ni, 4, generator=g)
    label = ((pu @ pi.T) > 0).float()
    U = torch.nn.Parameter(torch.randn(nu, d) * 0.1)
    V = torch.nn.Parameter(torch.randn(ni, d) * 0.1)
    opt = torch.optim.Adam([U, V], lr=0.05)
    for _ in range(150):
        opt.zero_grad()
        s = U @ V.T
        if extra_sigmoid:
            s = torch.sigmoid(s)
        loss = F.binary_cross_entropy_with_logits(s, label)
        loss.backward()
        opt.step()
    return loss.item()


def _check() -> str:
    bad, good = _run(True), _run(False)
    assert bad > 0.45 and good < 0.2, (bad, good)
    return f"sigmoid before BCEWithLogitsLoss: loss stalls at {bad:.3f}; raw scores: {good:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

