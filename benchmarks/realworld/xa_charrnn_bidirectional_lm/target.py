"""Character-level language model: predict character t+1 from the RNN output at position t."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 32
SEQ = 24
BIDIRECTIONAL = True


class CharRNN(nn.Module):
    def __init__(self, vocab=VOCAB, emb=16, hidden=48, bidirectional=BIDIRECTIONAL):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True, bidirectional=bidirectional)
        self.head = nn.Linear(hidden * (2 if bidirectional else 1), vocab)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.head(h)


def char_loss(logits, y):
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))


def make_text(n_chars=4000, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, VOCAB, (n_chars,), generator=g)


def batches(text, batch_size=16, seq=SEQ, seed=0):
    g = torch.Generator().manual_seed(seed)
    while True:
        idx = torch.randint(0, len(text) - seq - 1, (batch_size,), generator=g)
        x = torch.stack([text[i:i + seq] for i in idx])
        y = torch.stack([text[i + 1:i + seq + 1] for i in idx])
        yield x, y


def make_target():
    torch.manual_seed(0)
    text = make_text()
    it = batches(text)
    batch = next(it)
    return {
        "model": CharRNN(),
        "batch": batch,
        "loss_fn": char_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=2e-3),
        "train_data": [next(it) for _ in range(8)],
    }
