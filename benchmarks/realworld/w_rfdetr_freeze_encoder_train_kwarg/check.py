"""Self-contained: a detector whose freeze_encoder option only acts at construction time; fit() accepts it and ignores it."""
import torch
import torch.nn as nn


class Detector(nn.Module):
    def __init__(self, freeze_encoder=False):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(8, 5, 1)  # 4 box coords + 1 objectness
        self.cfg = {"freeze_encoder": freeze_encoder}
        if freeze_encoder:
            for p in self.encoder.parameters():
                p.requires_grad = False

    def forward(self, x):
        return self.head(self.encoder(x))

    def fit(self, x, y, steps=40, lr=5e-4, **train_kwargs):
        self.cfg.update(train_kwargs)  # stored, but parameters were already built with requires_grad=True
        opt = torch.optim.AdamW([p for p in self.parameters() if p.requires_grad], lr=lr, weight_decay=1e-4)
        for _ in range(steps):
            opt.zero_grad()
            nn.functional.mse_loss(self(x), y).backward()
            opt.step()


def _moved(freeze_where):
    torch.manual_seed(0)
    model = Detector(freeze_encoder=(freeze_where == "init"))
    before = [p.detach().clone() for p in model.encoder.parameters()]
    g = torch.Generator().manual_seed(1)
    x, y = torch.randn(2, 3, 16, 16, generator=g), torch.randn(2, 5, 16, 16, generator=g)
    model.fit(x, y, freeze_encoder=True)
    return max((p.detach() - b).abs().mean().item() for p, b in zip(model.encoder.parameters(), before))


def _check() -> str:
    via_fit = _moved("fit")
    via_init = _moved("init")
    assert via_fit > 1e-4 and via_init == 0.0, (via_fit, via_init)
    return (f"freeze_encoder=True given to fit(): encoder weights moved (max mean |dW| {via_fit:.2e}); "
            f"given to the constructor: {via_init:.1f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
