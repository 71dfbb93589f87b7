"""Self-contained: one DigitCaps routing pass (1152 primary capsules -> 10 digit capsules) with both softmax dims."""

import torch
import torch.nn.functional as F


def _squash(s, dim=-2):
    n2 = (s**2).sum(dim, keepdim=True)
    return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)


def _route(u_hat, softmax_dim, iters=3):
    batch, n_in, n_out = u_hat.shape[:3]
    b_ij = torch.zeros(1, n_in, n_out, 1)
    first_c = None
    for it in range(iters):
        c_ij = F.softmax(b_ij, dim=softmax_dim)
        if first_c is None:
            first_c = c_ij
        c = torch.cat([c_ij] * batch, dim=0).unsqueeze(4)
        s_j = (c * u_hat).sum(dim=1, keepdim=True)
        v_j = _squash(s_j)
        if it < iters - 1:
            a_ij = torch.matmul(u_hat.transpose(3, 4), torch.cat([v_j] * n_in, dim=1))
            b_ij = b_ij + a_ij.squeeze(4).mean(dim=0, keepdim=True)
    lengths = v_j.squeeze(1).norm(dim=-2).squeeze(-1)  # (batch, 10)
    return first_c, lengths


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    u_hat = 0.05 * torch.randn(4, 1152, 10, 16, 1, generator=g)
    c_bug, len_bug = _route(u_hat, softmax_dim=1)
    c_ok, len_ok = _route(u_hat, softmax_dim=2)
    per_input_sum_bug = c_bug.sum(dim=2).mean().item()
    per_input_sum_ok = c_ok.sum(dim=2).mean().item()
    assert abs(per_input_sum_ok - 1) < 1e-5 and per_input_sum_bug < 0.01, (per_input_sum_bug, per_input_sum_ok)
    assert len_bug.mean() < 0.1 * len_ok.mean(), (len_bug.mean(), len_ok.mean())
    return (
        f"softmax over the input capsules: c_ij = {c_bug.flatten()[0].item():.5f}, each input capsule's coefficients sum "
        f"to {per_input_sum_bug:.4f} (not 1); digit capsule lengths {len_bug.mean().item():.1e} vs {len_ok.mean().item():.4f} "
        f"with the softmax over the output capsules"
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
