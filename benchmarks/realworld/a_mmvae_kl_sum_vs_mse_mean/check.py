import importlib.util
import os

import torch
import torch.nn.functional as F


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_a_mmvae_kl_sum_vs_mse_mean_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    (x,), _ = t["batch"]
    opt = t["optimizer"](model.parameters())
    torch.manual_seed(0)
    for _ in range(100):
        opt.zero_grad()
        t["loss_fn"](model(x), x).backward()
        opt.step()
    with torch.no_grad():
        recon, mu, logvar = model(x)
        kl_per_sample = mod.kl_divergence(mu, logvar).item() / x.size(0)
        mse = F.mse_loss(recon, x).item()
        baseline = F.mse_loss(x.mean(0, keepdim=True).expand_as(x), x).item()
    assert kl_per_sample < 0.1, kl_per_sample
    assert mse > 0.7 * baseline, (mse, baseline)
    return (f"after 100 steps KL {kl_per_sample:.3f} nats/sample (collapsed); reconstruction MSE {mse:.3f} "
            f"vs {baseline:.3f} for predicting the mean profile")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: thread start-up costs more than the math
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
