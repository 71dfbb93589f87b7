"""Small BiLSTM + max-pool text classifier on a small, noisily labelled emotion-like data set (healthy code)."""
import torch
import torch.nn as nn

VOCAB, SEQ, N_CLS = 60, 12, 4


class RCNNClassifier(nn.Module):
    def __init__(self, emb=24, hidden=24):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.fc = nn.Sequential(nn.Linear(2 * hidden, 32), nn.ReLU(), nn.Linear(32, N_CLS))

    def forward(self, ids):
        h, _ = self.lstm(self.emb(ids))
        return self.fc(h.max(dim=1).values)


def _make_split(n, gen, noise=0.2):
    # each class has 5 cue words; a text carries one cue word among filler words; 20% of labels are flipped
    ids = torch.randint(N_CLS * 5, VOCAB, (n, SEQ), generator=gen)
    y = torch.randint(0, N_CLS, (n,), generator=gen)
    cue = y * 5 + torch.randint(0, 5, (n,), generator=gen)
    pos = torch.randint(0, SEQ, (n,), generator=gen)
    ids[torch.arange(n), pos] = cue
    flip = torch.rand(n, generator=gen) < noise
    y = torch.where(flip, torch.randint(0, N_CLS, (n,), generator=gen), y)
    return ids, y


def accuracy(out, y):
    return (out.argmax(1) == y).float().mean().item()


def make_target():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    train = _make_split(400, gen)
    val = _make_split(300, gen)
    return {
        "model": RCNNClassifier(),
        "batch": train,
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
        "metric_fn": accuracy,
        "train_data": train,
        "val_data": val,
    }
