import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_frozen_encoder_still_stepped_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, batch, loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    enc0 = [p.detach().clone() for p in model.encoder.parameters()]
    for _ in range(30):
        t["train_step"](model, batch, opt, loss_fn)
    delta = max(float((p.detach() - q).abs().max()) for p, q in zip(model.encoder.parameters(), enc0))
    norm_ratio = float(model.encoder[0].weight.detach().norm() / enc0[0].norm())
    assert model.encoder_frozen and delta > 1e-5 and norm_ratio < 1.0, (delta, norm_ratio)
    return (f"encoder_frozen=True but encoder weights moved by up to {delta:.1e} in 30 steps "
            f"(weight norm x{norm_ratio:.4f} from decoupled weight decay)")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
