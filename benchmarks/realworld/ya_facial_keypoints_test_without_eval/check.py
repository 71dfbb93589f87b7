import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("ya_fkp_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    net, (images, key_pts) = t["model"], t["batch"]
    opt = t["optimizer"](net.parameters())
    for _ in range(50):                      # a short training run, as in the notebook
        opt.zero_grad()
        t["loss_fn"](net(images), key_pts).backward()
        opt.step()
    torch.manual_seed(1)
    with torch.no_grad():
        runs = [t["eval_fn"](net, images) for _ in range(5)]
        mses = [t["metric_fn"](r, key_pts) for r in runs]
        spread = max((runs[0] - r).abs().max().item() for r in runs[1:])
        was_training = net.training
        net.eval()
        det = [t["eval_fn"](net, images) for _ in range(2)]
        eval_mse = t["metric_fn"](det[0], key_pts)
    assert was_training
    assert spread > 0.05, spread
    assert torch.equal(det[0], det[1])
    assert min(mses) > eval_mse, (mses, eval_mse)
    return (f"net.training={was_training} when the test images are run; five passes over the same 16 images give "
            f"keypoints differing by up to {spread:.3f} and MSE {min(mses):.3f}..{max(mses):.3f}; after net.eval() the "
            f"passes are identical with MSE {eval_mse:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
