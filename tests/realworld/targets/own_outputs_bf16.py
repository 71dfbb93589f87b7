"""Dict inputs, an output object with .logits and .loss, a bf16 autocast region in forward and a train
step with gradient clipping: patterns from trainer-style code, in a small classifier."""

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


@dataclass
class Output:
    logits: torch.Tensor
    loss: torch.Tensor | None = None


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(40, 32)
        self.body = nn.Sequential(nn.Linear(32, 64), nn.SiLU(), nn.Linear(64, 32))
        self.norm = nn.LayerNorm(32)
        self.head = nn.Linear(32, 5)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.emb(input_ids)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            h = self.body(h)
        h = self.norm(h.float())
        m = attention_mask[..., None].float()
        logits = self.head((h * m).sum(1) / m.sum(1).clamp_min(1))
        return Output(logits=logits, loss=F.cross_entropy(logits, labels) if labels is not None else None)


def train_step(model, batch, optimizer, loss_fn):
    inputs, labels = batch
    model.train()
    optimizer.zero_grad()
    loss = loss_fn(model(**inputs), labels)
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    return loss.item()


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(1, 40, (8, 10))
    mask = torch.ones_like(ids)
    mask[1::2, 7:] = 0
    labels = ids[:, 0] % 5
    return {
        "model": Classifier(),
        "batch": ({"input_ids": ids, "attention_mask": mask}, labels),
        "loss_fn": lambda out, y: F.cross_entropy(out.logits, y),
        "train_step": train_step,
        "metric_fn": lambda out, y: (out.logits.argmax(-1) == y).float().mean(),
    }
