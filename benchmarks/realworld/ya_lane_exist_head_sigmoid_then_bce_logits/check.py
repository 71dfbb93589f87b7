import importlib.util
import math
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("ya_lane_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, fix, steps=30):
    torch.manual_seed(0)
    t = mod.make_target()
    model = t["model"]
    img, (seg, exist) = t["batch"]
    if fix:
        model.lane_exist.forward = lambda x, m=model.lane_exist: m.fc2(F.relu(m.fc1(F.adaptive_avg_pool2d(m.conv(x), (2, 4)).flatten(1))))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        opt.zero_grad()
        t["loss_fn"](model(img), (seg, exist)).backward()
        opt.step()
    with torch.no_grad():
        _, out = model(img)
        ex_loss = F.binary_cross_entropy_with_logits(out, exist).item()
    return ex_loss, out


def _run() -> str:
    mod = _load()
    _, exist = mod.make_target()["batch"][1]
    p1 = exist.mean().item()
    floor = p1 * math.log1p(math.exp(-1.0)) + (1 - p1) * math.log(2.0)
    loss_b, out_b = _train(mod, fix=False)
    loss_f, _ = _train(mod, fix=True)
    implied = torch.sigmoid(out_b)
    assert out_b.min() >= 0 and out_b.max() <= 1
    assert loss_b >= floor - 1e-4, (loss_b, floor)
    assert implied.min().item() >= 0.5 and implied.max().item() <= 0.7311
    assert loss_f < 0.5 * floor, (loss_f, floor)
    return (f"existence head outputs lie in [{out_b.min().item():.2f}, {out_b.max().item():.2f}], so BCEWithLogits sees "
            f"probabilities {implied.min().item():.3f}..{implied.max().item():.3f}; after 30 steps the existence loss is "
            f"{loss_b:.3f} (floor for this label mix {floor:.3f}) while the same head without the sigmoid reaches {loss_f:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
