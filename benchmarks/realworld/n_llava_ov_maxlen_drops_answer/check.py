import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_n_llava_ov_maxlen_drops_answer_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, x, y, steps=15):
    torch.manual_seed(0)
    model = mod.TinyVLM()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    losses, gnorms = [], []
    for _ in range(steps):
        opt.zero_grad()
        loss = mod.lm_loss(model(x), y)
        loss.backward()
        gnorms.append(sum(float(p.grad.norm()) for p in model.parameters() if p.grad is not None))
        opt.step()
        losses.append(loss.item())
    return losses, gnorms


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    x, y = t["train_data"]
    supervised = int(y.ne(mod.IGNORE).sum())
    losses, gnorms = _train(mod, x, y)
    assert supervised == 0, supervised
    assert max(losses) == 0.0 and max(gnorms) == 0.0, (losses[:3], gnorms[:3])
    xl, yl = mod.build_batch(64, 2, max_len=256)
    ok_losses, ok_g = _train(mod, xl, yl)
    assert ok_losses[0] > 3.0 and min(ok_g) > 0, (ok_losses[0], min(ok_g))
    return (
        f"max_len={mod.MODEL_MAX_LEN}: {supervised} supervised label tokens in {y.numel()}, loss {losses[0]:.1f} and grad norm "
        f"{gnorms[0]:.1f} for all 15 steps; with room for the answer: loss {ok_losses[0]:.2f} -> {ok_losses[-1]:.2f}"
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
