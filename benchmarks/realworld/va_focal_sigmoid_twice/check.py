import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("va_focal_sigmoid_twice_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _healthy_focal(inputs, targets, gamma=2.0, alpha=0.25):
    probs = torch.sigmoid(inputs)
    bce = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = probs * targets + (1 - probs) * (1 - targets)
    alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
    return (alpha_t * (1 - p_t) ** gamma * bce).mean()


def _fit(mod, loss_fn):
    t = mod.make_target()
    model = t["model"]
    x, y = t["train_data"]
    opt = t["optimizer"](model.parameters())
    for step in range(120):
        i = (step * 64) % len(x)
        opt.zero_grad()
        loss = loss_fn(model(x[i:i + 64]), y[i:i + 64])
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(x)
        return loss_fn(out, y).item(), torch.sigmoid(torch.sigmoid(out)).min().item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    x, y = t["batch"]
    loss_fn = mod.FocalLoss(gamma=0.0, alpha=0.5)
    right = torch.where(y > 0, 12.0, -12.0)          # confident and correct
    wrong = -right                                    # confident and wrong
    l_right, l_wrong = loss_fn(right, y).item(), loss_fn(wrong, y).item()
    h_right, h_wrong = _healthy_focal(right, y, 0.0, 0.5).item(), _healthy_focal(wrong, y, 0.0, 0.5).item()
    assert l_right > 0.15 and h_right < 1e-3, (l_right, h_right)
    assert l_wrong < 1.0 and h_wrong > 5.0, (l_wrong, h_wrong)
    with torch.no_grad():
        seen = torch.sigmoid(torch.sigmoid(t["model"](x)))
    assert seen.min().item() >= 0.5
    return (f"gamma=0: loss for perfect logits {l_right:.3f} (healthy {h_right:.1e}); for confidently wrong logits "
            f"{l_wrong:.3f} (healthy {h_wrong:.2f}); probabilities seen by the BCE min {seen.min().item():.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
