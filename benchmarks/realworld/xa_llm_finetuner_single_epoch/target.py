"""Small causal LM fine-tuned on a handful of custom prompt/answer samples (healthy code)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB = 48
SEQ = 16
N_SAMPLES = 7
EPOCHS = 1          # what the run used
LR = 3e-4


class TinyLM(nn.Module):
    def __init__(self, vocab=VOCAB, dim=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        return self.head(h)


def lm_loss(logits, ids):
    return F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))


def make_samples(seed=0):
    g = torch.Generator().manual_seed(seed)
    return [torch.randint(0, VOCAB, (1, SEQ), generator=g) for _ in range(N_SAMPLES)]


def train(model, samples, epochs=EPOCHS, lr=LR):
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    model.train()
    for _ in range(epochs):
        for ids in samples:
            opt.zero_grad()
            loss = lm_loss(model(ids), ids)
            loss.backward()
            opt.step()
    return model


def make_target():
    torch.manual_seed(0)
    samples = make_samples()
    batch = torch.cat(samples, 0)
    return {
        "model": TinyLM(),
        "batch": (batch, batch),
        "loss_fn": lm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=LR),
        "train_data": [(s, s) for s in samples],
        "causal": True,
    }
