"""Self-contained: a dropout LM trained with periodic evaluation; after the first eval the steps run in eval mode."""

import torch
from torch import nn


class TinyMLM(nn.Module):
    def __init__(self, vocab=80):
        super().__init__()
        self.emb = nn.Embedding(vocab, 64)
        self.drop = nn.Dropout(0.3)
        self.body = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, vocab))

    def forward(self, ids):
        return self.body(self.drop(self.emb(ids)))


def _run(train_every_step):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x = torch.randint(0, 80, (2048,), generator=g)
    y = (x * 7 + 3) % 80
    model = TinyMLM()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
    loss_fn = nn.CrossEntropyLoss()
    model.train()
    modes, losses = [], []
    for step in range(120):
        if train_every_step:
            model.train()
        idx = torch.randint(0, 2048, (64,), generator=g)
        opt.zero_grad()
        loss = loss_fn(model(x[idx]), y[idx])
        loss.backward()
        opt.step()
        modes.append(model.training)
        losses.append(loss.item())
        if step == 59:  # evaluate_during_training
            model.eval()
            with torch.no_grad():
                loss_fn(model(x[:256]), y[:256])
    return modes, losses


def _check() -> str:
    bad_modes, bad_losses = _run(train_every_step=False)
    ok_modes, ok_losses = _run(train_every_step=True)
    assert all(bad_modes[:60]) and not any(bad_modes[60:]), bad_modes
    assert all(ok_modes)
    before = sum(bad_losses[50:60]) / 10
    after = sum(bad_losses[60:70]) / 10
    ok_after = sum(ok_losses[60:70]) / 10
    assert after < 0.8 * before and after < 0.85 * ok_after, (before, after, ok_after)
    return (
        f"{60} of 120 training steps ran with model.training=False after the eval at step 60; logged train loss "
        f"jumps {before:.3f} -> {after:.3f} right after it (train mode kept: {ok_after:.3f})"
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
