"""Embedding encoder trained with a periodic validation hook that never switches back to train mode."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d_in=24, hidden=64, d_emb=16):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.bn = nn.BatchNorm1d(hidden)
        self.drop = nn.Dropout(0.3)
        self.fc2 = nn.Linear(hidden, d_emb)

    def forward(self, x):
        h = self.drop(F.relu(self.bn(self.fc1(x))))
        return F.normalize(self.fc2(h), dim=-1)


def contrastive_loss(emb, pair_emb):
    logits = emb @ pair_emb.t() / 0.1
    labels = torch.arange(emb.shape[0])
    return F.cross_entropy(logits, labels)


class _State:
    iters = 0


VAL_EVERY = 2


def eval_fn(model, batch):
    x, _ = batch
    model.eval()  # validation switches to eval mode ...
    with torch.no_grad():
        return model(x)
    # ... and nothing switches it back; train mode is only set at the start of an epoch


def train_step(model, batch, optimizer, loss_fn):
    x, pair = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), pair)
    loss.backward()
    optimizer.step()
    _State.iters += 1
    if _State.iters % VAL_EVERY == 0:
        eval_fn(model, batch)
    return loss


def make_target():
    torch.manual_seed(0)
    _State.iters = 0
    x = torch.randn(32, 24)
    pair = F.normalize(torch.randn(32, 16), dim=-1)
    model = Encoder()
    model.train()  # start of epoch
    return {
        "model": model,
        "batch": (x, pair),
        "loss_fn": contrastive_loss,
        "train_step": train_step,
        "eval_fn": eval_fn,
    }
