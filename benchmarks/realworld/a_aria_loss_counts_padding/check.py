"""No target: reproduces the symptom with a small stand-in for the training script's loss."""
import torch
import torch.nn as nn

PAD = 0


class MidiLM(nn.Module):
    def __init__(self, vocab=40, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, x):
        return self.head(self.rnn(self.emb(x))[0])


def _pieces(max_len, seed=3):
    g = torch.Generator().manual_seed(seed)
    seqs = torch.full((8, max_len + 1), PAD)
    for i in range(8):
        n = 10 + i
        seqs[i, :n] = torch.randint(1, 40, (n,), generator=g)
    return seqs[:, :-1], seqs[:, 1:]


def _run() -> str:
    torch.manual_seed(0)
    model = MidiLM()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()              # as in the edited train loop: pad id not ignored
    src, tgt = _pieces(24, seed=1)
    for _ in range(12):
        opt.zero_grad()
        loss_fn(model(src).transpose(1, 2), tgt).backward()
        opt.step()
    with torch.no_grad():
        short = loss_fn(model(_pieces(20)[0]).transpose(1, 2), _pieces(20)[1]).item()
        long = loss_fn(model(_pieces(48)[0]).transpose(1, 2), _pieces(48)[1]).item()
    assert short > long + 0.3, (short, long)
    return f"same validation pieces: eval loss {short:.3f} at max_seq_len 20 vs {long:.3f} at 48 (more padding)"


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
