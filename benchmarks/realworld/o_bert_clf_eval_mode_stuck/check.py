"""Self-contained: a dropout classifier trained with model.train() once before the loop and an eval pass
after every epoch that calls model.eval(); count how many training steps run with dropout disabled."""

import torch
from torch import nn
import torch.nn.functional as F


class Clf(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Dropout(0.3), nn.Linear(64, 64), nn.GELU(), nn.Dropout(0.3))
        self.head = nn.Linear(64, 2)

    def forward(self, x):
        return self.head(self.enc(x))


def _eval_epoch(model, xv, yv):
    model.eval()
    with torch.no_grad():
        return (model(xv).argmax(-1) == yv).float().mean().item()


def _run(train_back):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    w = torch.randn(20, generator=g)
    x = torch.randn(512, 20, generator=g)
    y = (x @ w > 0).long()
    xv = torch.randn(256, 20, generator=g)
    yv = (xv @ w > 0).long()
    model = Clf()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model.train()
    steps_eval_mode = steps = 0
    same_twice = []
    for epoch in range(4):
        if train_back:
            model.train()
        for i in range(0, 512, 64):
            xb, yb = x[i:i + 64], y[i:i + 64]
            steps += 1
            steps_eval_mode += int(not model.training)
            out1 = model(xb)
            with torch.no_grad():
                same_twice.append(torch.equal(out1, model(xb)))
            loss = F.cross_entropy(out1, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        _eval_epoch(model, xv, yv)
    return steps_eval_mode, steps, sum(same_twice)


def _check() -> str:
    bad_eval, steps, bad_det = _run(train_back=False)
    ok_eval, _, ok_det = _run(train_back=True)
    assert bad_eval == steps - steps // 4 and bad_det == bad_eval, (bad_eval, steps, bad_det)
    assert ok_eval == 0 and ok_det == 0, (ok_eval, ok_det)
    return (f"eval pass without model.train() after it: {bad_eval}/{steps} training steps ran in eval mode "
            f"(dropout off, two forwards identical in {bad_det} steps); with model.train() each epoch: {ok_eval}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
