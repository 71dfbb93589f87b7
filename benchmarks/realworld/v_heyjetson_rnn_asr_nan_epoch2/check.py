import importlib.util
import math
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_v_heyjetson_rnn_asr_nan_epoch2_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run(mod, clip):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    losses, norms = [], []
    for epoch in range(2):
        for x, y in t["train_data"]:
            opt.zero_grad()
            loss = t["loss_fn"](model(x), y)
            loss.backward()
            total = torch.nn.utils.clip_grad_norm_(model.parameters(), clip if clip else float("inf"))
            opt.step()
            losses.append(loss.item())
            norms.append(total.item())
            if not math.isfinite(losses[-1]):
                return losses, norms
    return losses, norms


def _check() -> str:
    mod = _load()
    losses, norms = _run(mod, None)
    bad = next((i for i, v in enumerate(losses) if not math.isfinite(v)), None)
    finite_norms = [n for n in norms if math.isfinite(n)]
    assert bad is not None and bad >= 3, losses[:10]
    assert max(finite_norms) > 100 * finite_norms[0], (finite_norms[0], max(finite_norms))
    c_losses, c_norms = _run(mod, 1.0)
    assert all(math.isfinite(v) for v in c_losses) and c_losses[-1] < c_losses[0], (c_losses[0], c_losses[-1])
    return (
        f"no clipping: loss {losses[0]:.2f} -> nan at step {bad}, grad norm {finite_norms[0]:.2f} -> {max(finite_norms):.3g}; "
        f"with clip_grad_norm_(1.0): loss {c_losses[0]:.2f} -> {c_losses[-1]:.2f} over {len(c_losses)} steps"
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
