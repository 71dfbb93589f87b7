"""Self-contained: tiny encoder/decoder; gradient of the decoder's adversarial KL term with and without detach."""

import torch
from torch import nn


def _kl(mu, logvar):
    return 0.5 * (mu.pow(2) + logvar.exp() - 1 - logvar).sum(1).mean()


def _grad_norm(detach):
    torch.manual_seed(0)
    enc = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))  # -> mu(2), logvar(2)
    dec = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 8))
    x = torch.randn(32, 8)
    h = enc(x)
    mu, logvar = h[:, :2], h[:, 2:]
    z = torch.randn_like(mu)
    xp = dec(z)
    xr = dec(mu + torch.randn_like(mu) * (0.5 * logvar).exp())
    hp = enc(xp.detach() if detach else xp)
    hr = enc(xr)
    kl_sample = _kl(hp[:, :2], hp[:, 2:])      # the term that should push generated samples
    loss_adv_g = kl_sample + _kl(hr[:, :2], hr[:, 2:])
    grads = torch.autograd.grad(kl_sample, list(dec.parameters()), allow_unused=True, retain_graph=True)
    return sum(0.0 if g is None else g.norm().item() for g in grads), loss_adv_g.requires_grad


def _check() -> str:
    g_det, rg = _grad_norm(True)
    g_ok, _ = _grad_norm(False)
    assert rg and g_det == 0.0 and g_ok > 1e-3, (g_det, g_ok)
    return (f"decoder gradient norm from the sample (xp) adversarial KL term: {g_det} with detach (loss still requires grad via "
            f"the encoder), {g_ok:.3f} without")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
