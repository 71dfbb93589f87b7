"""Self-contained: soft prototype assignments normalised over dim=0 (the batch) instead of dim=1 (the prototypes)."""

import torch
import torch.nn.functional as F


def euclid(a, b):
    return torch.cdist(a, b)


def proto_loss(pooled, protos, temperature=0.1, dim=0):
    sim = pooled @ protos.T / temperature
    s_dist = F.softmax(sim, dim=dim)
    cost = euclid(pooled, protos)
    return (cost * s_dist).sum(0).mean(), s_dist


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    K, d = 10, 16
    protos = F.normalize(torch.randn(K, d, generator=g), dim=1)
    feats = F.normalize(torch.randn(256, d, generator=g), dim=1)
    loss_small, s_small = proto_loss(feats[:16], protos)
    loss_big, s_big = proto_loss(feats, protos)
    row0_small, row0_big = s_small[0].sum().item(), s_big[0].sum().item()
    _, s_ok = proto_loss(feats[:16], protos, dim=1)
    _, s_ok_big = proto_loss(feats, protos, dim=1)
    assert abs(row0_small - 1) > 0.3 and abs(row0_big - 1) > 0.3, (row0_small, row0_big)
    assert abs(row0_small - row0_big) > 0.05, (row0_small, row0_big)
    assert loss_small.item() > 1.05 * loss_big.item(), (loss_small.item(), loss_big.item())
    assert torch.allclose(s_ok[0], s_ok_big[0]) and abs(s_ok[0].sum().item() - 1) < 1e-5
    return (
        f"softmax over dim=0: prototype loss {loss_small.item():.3f} at batch 16 vs {loss_big.item():.3f} at batch 256 "
        f"for the same features; example 0's weights over the {K} prototypes sum to {row0_small:.3f} / {row0_big:.3f} "
        f"depending on its batch (dim=1: 1.000 in both)"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
