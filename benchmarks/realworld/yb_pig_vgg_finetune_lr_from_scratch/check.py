import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yb_pig_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, model, lr, steps=25):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = torch.nn.CrossEntropyLoss()
    first = grad0 = None
    for step in range(steps):
        x, y = mod.make_pig_images(32, seed=100 + step)
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        if step == 0:
            first = loss.item()
            grad0 = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")).item()
        opt.step()
    model.eval()
    vx, vy = mod.make_pig_images(64, seed=1)
    with torch.no_grad():
        out = model(vx)
        val_loss, acc = loss_fn(out, vy).item(), (out.argmax(1) == vy).float().mean().item()
    return first, val_loss, acc, grad0


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    first, val_loss, acc, grad0 = _train(mod, t["model"], mod.BASE_LEARNING_RATE)
    torch.manual_seed(0)
    tw_first, tw_val, tw_acc, _ = _train(mod, mod.VGG16Small(), 3e-3)
    assert grad0 > 1e-3, grad0                       # gradients are there, the steps are just tiny
    assert abs(val_loss - first) < 0.01 * first, (first, val_loss)
    assert acc <= 0.3, acc
    assert tw_val < 0.7 * tw_first and tw_acc >= 0.5, (tw_first, tw_val, tw_acc)
    return (f"lr={mod.BASE_LEARNING_RATE:g}: grad norm {grad0:.2f}, loss {first:.4f} -> val {val_loss:.4f} after 25 steps, "
            f"val acc {acc:.2f}; lr=3e-3: loss {tw_first:.3f} -> val {tw_val:.3f}, val acc {tw_acc:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
