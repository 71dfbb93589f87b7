"""Self-contained: the character-level model from the diff (embedding -> MLP -> vocab) trained on a deterministic
character sequence, with and without the softmax in forward() before F.cross_entropy."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, D = 32, 64


class SimpleModel(nn.Module):
    def __init__(self, softmax_in_forward):
        super().__init__()
        self.softmax_in_forward = softmax_in_forward
        self.embedding = nn.Embedding(VOCAB, D)
        self.linear = nn.Sequential(nn.Linear(D, D), nn.ReLU(), nn.Linear(D, VOCAB))

    def forward(self, idx, targets):
        a = self.linear(self.embedding(idx))
        logits = F.softmax(a, dim=-1) if self.softmax_in_forward else a
        return F.cross_entropy(logits.view(-1, VOCAB), targets.view(-1))


def _train(softmax_in_forward):
    torch.manual_seed(0)
    model = SimpleModel(softmax_in_forward)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(1)
    text = (torch.arange(4096) * 7 + torch.arange(4096) // 5) % VOCAB  # next char is a function of the current one
    losses = []
    for step in range(150):
        i = torch.randint(0, len(text) - 17, (32,), generator=g)
        pos = i[:, None] + torch.arange(16)
        xb, yb = text[pos], text[pos + 1]
        opt.zero_grad()
        loss = model(xb, yb)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _check() -> str:
    bad = _train(True)
    ok = _train(False)
    floor = torch.log(torch.tensor(VOCAB - 1 + torch.e)).item() - 1  # best reachable when probabilities are fed as logits
    assert min(bad) > floor - 1e-3 and ok[-1] < floor - 1.0, (min(bad), floor, ok[-1])
    return (
        f"softmax before cross_entropy: loss {bad[0]:.3f} -> {bad[-1]:.3f} (cannot go below {floor:.2f}); "
        f"raw logits: {ok[0]:.3f} -> {ok[-1]:.3f} in 150 steps"
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
