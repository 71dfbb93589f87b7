"""Sentence VAE with a 2-layer bidirectional GRU encoder; the final hidden state is flattened with view(batch, -1)."""

import torch
from torch import nn

VOCAB, EMB, HID, LAT, LAYERS = 60, 16, 24, 8, 2


class SentenceVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden_factor = 2 * LAYERS  # bidirectional
        self.embedding = nn.Embedding(VOCAB, EMB)
        self.encoder = nn.GRU(EMB, HID, num_layers=LAYERS, bidirectional=True, batch_first=True)
        self.hidden2mean = nn.Linear(HID * self.hidden_factor, LAT)
        self.hidden2logv = nn.Linear(HID * self.hidden_factor, LAT)
        self.latent2hidden = nn.Linear(LAT, HID)
        self.decoder = nn.GRU(EMB, HID, batch_first=True)
        self.out = nn.Linear(HID, VOCAB)

    def encode(self, ids):
        batch_size = ids.size(0)
        _, hidden = self.encoder(self.embedding(ids))  # (layers*dirs, B, H) even with batch_first
        hidden = hidden.view(batch_size, HID * self.hidden_factor)  # flatten per sentence
        return self.hidden2mean(hidden), self.hidden2logv(hidden)

    def forward(self, ids):
        mean, logv = self.encode(ids)
        z = mean + torch.randn_like(mean) * torch.exp(0.5 * logv) if self.training else mean
        h0 = torch.tanh(self.latent2hidden(z)).unsqueeze(0)
        dec_in = self.embedding(ids[:, :-1])
        out, _ = self.decoder(dec_in, h0)
        return self.out(out), mean, logv


def vae_loss(output, targets):
    logits, mean, logv = output
    nll = nn.functional.cross_entropy(logits.reshape(-1, VOCAB), targets[:, 1:].reshape(-1))
    kl = -0.5 * torch.mean(1 + logv - mean.pow(2) - logv.exp())
    return nll + 0.1 * kl


def make_data(n=256, length=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(3, VOCAB, (n, length), generator=g)
    ids[:, 0] = 1  # <sos>
    return ids


def make_target():
    torch.manual_seed(0)
    ids = make_data()
    return {
        "model": SentenceVAE(),
        "batch": (ids[:32], ids[:32]),
        "loss_fn": vae_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "train_data": (ids[:224], ids[:224]),
        "val_data": (ids[224:], ids[224:]),
    }
