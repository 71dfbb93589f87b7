"""Train the autoencoder: hidden ReLUs never fire, the output is one vector for every sample."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("t_tcga_ae_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _check() -> str:
    t = _load()
    torch.manual_seed(0)
    x = t.expression()
    model = t.AE()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(300):
        loss = F.mse_loss(model(x), x)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    with torch.no_grad():
        code = model.enc(x)
        active = (model.enc[0](x) > 0).float().mean().item()
        out = model(x)
        per_gene_var = x.var(0, unbiased=False).mean().item()
    enc_grad = model.enc[0].weight.grad.abs().max().item()
    assert active == 0.0 and code.abs().max().item() == 0.0 and enc_grad == 0.0, (active, enc_grad)
    assert out.std(0).max().item() < 1e-5 and abs(losses[-1] - per_gene_var) < 0.1 * per_gene_var, losses[-1]
    return (f"first hidden layer active fraction {active:.2f}, code all zero, encoder grad 0; loss {losses[0]:.4f} -> "
            f"{losses[-1]:.4f} = per-gene variance {per_gene_var:.4f} (output identical for every sample)")

def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())

