import torch
from torch import nn

VOCAB = 50
N_TAGS = 6
MAX_LEN = 40


class LSTMTagger(nn.Module):
    def __init__(self, vocab=VOCAB, emb=32, hidden=32, n_tags=N_TAGS):
        super().__init__()
        self.emb = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, n_tags)

    def forward(self, words):
        h, _ = self.lstm(self.emb(words))
        return self.out(h)


def pad_sequences(seqs, maxlen=MAX_LEN):
    out = torch.zeros(len(seqs), maxlen, dtype=torch.long)
    for i, s in enumerate(seqs):
        out[i, maxlen - len(s):] = torch.tensor(s)
    return out


def make_corpus(n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    sents, tags = [], []
    for _ in range(n):
        length = int(torch.randint(3, 9, (1,), generator=g))
        words = torch.randint(1, VOCAB, (length,), generator=g).tolist()
        sents.append(words)
        tags.append([1 + (w * 7 + (words[j - 1] if j else 0)) % (N_TAGS - 1) for j, w in enumerate(words)])
    return pad_sequences(sents), pad_sequences(tags)


def tag_loss(logits, tags):
    return nn.functional.cross_entropy(logits.reshape(-1, N_TAGS), tags.reshape(-1))


def accuracy(logits, tags):
    return (logits.argmax(-1) == tags).float().mean().item()


def make_target():
    torch.manual_seed(0)
    x, y = make_corpus()
    return {
        "model": LSTMTagger(),
        "batch": (x, y),
        "loss_fn": tag_loss,
        "metric_fn": accuracy,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }
