import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("va_kornia_se3_log_nan_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _stable_log(R):
    cos = ((R.diagonal(dim1=-2, dim2=-1).sum(-1) - 1) / 2).clamp(-1 + 1e-6, 1 - 1e-6)
    theta = torch.acos(cos)
    vee = torch.stack([R[..., 2, 1] - R[..., 1, 2], R[..., 0, 2] - R[..., 2, 0], R[..., 1, 0] - R[..., 0, 1]], -1)
    return (theta / (2 * torch.sin(theta)))[..., None] * vee


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    (f0, f1), R = t["batch"]
    loss = t["loss_fn"](model(f0, f1), R)
    loss.backward()
    grads_nan = sum(int(torch.isnan(p.grad).any()) for p in model.parameters())
    assert torch.isnan(loss), loss
    assert grads_nan > 0
    ok = mod.PoseNet()
    ok.load_state_dict(model.state_dict())
    R_pred = ok(f0, f1)
    ok_loss = _stable_log(R_pred.transpose(-1, -2) @ R).norm(dim=-1).mean()
    ok_loss.backward()
    assert torch.isfinite(ok_loss) and all(torch.isfinite(p.grad).all() for p in ok.parameters())
    n_still = int((R - torch.eye(3)).abs().amax((1, 2)).lt(1e-7).sum())
    return (f"first batch ({n_still}/32 zero-motion pairs): loss {loss.item()}, NaN grads in {grads_nan} tensors; "
            f"with a guarded log map loss {ok_loss.item():.4f}, grads finite")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
