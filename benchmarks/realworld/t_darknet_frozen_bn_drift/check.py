"""Self-contained: backbone 'frozen' with requires_grad=False while the whole model trains in train() mode."""

import torch
from torch import nn


def _block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.LeakyReLU(0.1))


def _check() -> str:
    torch.manual_seed(0)
    backbone = nn.Sequential(_block(3, 8), _block(8, 8), _block(8, 16))
    head = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 3))
    model = nn.Sequential(backbone, head)
    # "pretrained" statistics from the original data distribution
    model.train()
    with torch.no_grad():
        for _ in range(50):
            backbone(torch.randn(16, 3, 16, 16))
    for p in backbone.parameters():
        p.requires_grad = False
    probe = torch.randn(8, 3, 16, 16)
    model.eval()
    with torch.no_grad():
        feat_before = backbone(probe).clone()
    params_before = [p.detach().clone() for p in backbone.parameters()]
    rm_before = backbone[0][1].running_mean.clone()
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.05, momentum=0.9, weight_decay=5e-4)
    g = torch.Generator().manual_seed(1)
    for _ in range(100):
        model.train()
        x = torch.randn(16, 3, 16, 16, generator=g) * 2.0 + 1.5  # the new dataset: different brightness/contrast
        y = torch.randint(0, 3, (16,), generator=g)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        feat_after = backbone(probe)
    param_change = max((p - q).abs().max().item() for p, q in zip(backbone.parameters(), params_before))
    rm_change = (backbone[0][1].running_mean - rm_before).abs().max().item()
    rel = ((feat_after - feat_before).norm() / feat_before.norm()).item()
    assert param_change == 0.0
    assert rm_change > 0.5 and rel > 0.3, (rm_change, rel)
    return (f"'frozen' backbone: weights moved {param_change:.1e}, but BN running_mean moved {rm_change:.2f} and its "
            f"eval-mode features on a fixed probe changed by {rel:.0%} (relative L2) after 100 fine-tuning steps")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
