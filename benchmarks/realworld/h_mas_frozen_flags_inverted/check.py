import torch
import torch.nn as nn
import torch.nn.functional as F


def _freeze_layers(model, frozen_names, swapped):
    for name, module in model.named_children():
        frozen = name in frozen_names
        for p in module.parameters():
            p.requires_grad = frozen if swapped else not frozen
    return model


def _run(swapped):
    torch.manual_seed(0)
    model = nn.Sequential()
    model.add_module("features", nn.Sequential(nn.Linear(10, 16), nn.ReLU()))
    model.add_module("classifier", nn.Linear(16, 3))
    _freeze_layers(model, {"features"}, swapped)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
    g = torch.Generator().manual_seed(1)
    x, y = torch.randn(128, 10, generator=g), torch.randint(0, 3, (128,), generator=g)
    for _ in range(20):
        opt.zero_grad()
        F.cross_entropy(model(x), y).backward()
        opt.step()
    moved = {n: not torch.equal(before[n], p) for n, p in model.named_parameters()}
    return moved["features.0.weight"], moved["classifier.weight"]


def _check() -> str:
    feat_bug, cls_bug = _run(True)
    feat_ok, cls_ok = _run(False)
    assert feat_bug and not cls_bug and not feat_ok and cls_ok, (feat_bug, cls_bug, feat_ok, cls_ok)
    return "after training, the 'frozen' feature layer changed and the classifier kept its initial weights"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
