"""Small SMILES autoencoder: GRU encoder to a latent vector, GRU decoder over the padded sequence."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, MAXLEN, PAD = 20, 40, 0


class SmilesAE(nn.Module):
    def __init__(self, emb=16, hidden=32, latent=8):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, emb, padding_idx=PAD)
        self.enc = nn.GRU(emb, hidden, batch_first=True)
        self.to_z = nn.Linear(hidden, latent)
        self.from_z = nn.Linear(latent, hidden)
        self.dec = nn.GRU(emb, hidden, batch_first=True)
        self.out = nn.Linear(hidden, VOCAB)

    def forward(self, tokens):
        _, h = self.enc(self.emb(tokens))
        z = self.to_z(h[-1])
        shifted = F.pad(tokens[:, :-1], (1, 0), value=PAD)  # teacher forcing with a start symbol
        y, _ = self.dec(self.emb(shifted), self.from_z(z).unsqueeze(0))
        return self.out(y)


def smiles_batch(n, seed):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(4, 9, (n,), generator=g)
    tokens = torch.randint(1, VOCAB, (n, MAXLEN), generator=g)
    tokens[torch.arange(MAXLEN).unsqueeze(0) >= lengths.unsqueeze(1)] = PAD
    return tokens, tokens.clone()


def recon_loss(logits, target):
    return F.cross_entropy(logits.reshape(-1, VOCAB), target.reshape(-1))


def make_target():
    torch.manual_seed(0)
    x, y = smiles_batch(512, 1)
    return {
        "model": SmilesAE(),
        "batch": (x[:64], y[:64]),
        "loss_fn": recon_loss,
        "metric_fn": lambda out, t: (out.argmax(-1) == t).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": (x, y),
        "val_data": smiles_batch(256, 2),
    }
