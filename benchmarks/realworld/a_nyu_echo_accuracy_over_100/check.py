"""No target: reproduces the accuracy bookkeeping on an echo task with a small RNN."""
import torch
import torch.nn as nn


class EchoRNN(nn.Module):
    def __init__(self, hidden=4):
        super().__init__()
        self.rnn = nn.RNN(1, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x, h=None):
        y, h = self.rnn(x, h)
        return self.out(y).squeeze(-1), h


def _accuracy(batch_size, bptt=20, n_chunks=5, seed=0):
    g = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    model = EchoRNN()
    series = torch.randint(0, 2, (batch_size, bptt * n_chunks), generator=g).float()
    echo = torch.roll(series, 3, dims=1)                       # target: the input 3 steps earlier
    correct, hidden = 0, None
    with torch.no_grad():
        for c in range(n_chunks):
            x = series[:, c * bptt:(c + 1) * bptt].unsqueeze(-1)
            target = echo[:, c * bptt:(c + 1) * bptt]
            output, hidden = model(x, hidden)
            pred = torch.sigmoid(output) > 0.5
            correct += (pred == target.byte()).int().sum().item()
    train_size = n_chunks
    return float(correct) / train_size


def _run() -> str:
    small, big = _accuracy(5), _accuracy(100)
    assert small < 100.0 and big > 100.0, (small, big)
    return f"printed accuracy {small:.1f}% with batch_size 5 but {big:.1f}% with batch_size 100"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
