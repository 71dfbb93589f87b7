"""Tiny causal LM for SFT; the loss is computed per sequence slice (one slice per ring-attention rank) and averaged."""
import torch
import torch.nn as nn
import torch.nn.functional as F

IGNORE_INDEX = -100
RING_SIZE = 2


class TinyLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids):
        h, _ = self.rnn(self.emb(input_ids))
        return self.lm_head(h)


def ring_sliced_sft_loss(logits, labels):
    """Each rank only sees its contiguous slice of the sequence; per-slice mean CE is averaged over ranks."""
    per_rank = []
    for lg, lb in zip(logits.chunk(RING_SIZE, dim=1), labels.chunk(RING_SIZE, dim=1)):
        per_rank.append(F.cross_entropy(lg.reshape(-1, lg.size(-1)), lb.reshape(-1), ignore_index=IGNORE_INDEX))
    return torch.stack(per_rank).mean()


def make_target():
    torch.manual_seed(0)
    batch, seq, prompt_len = 4, 16, 10            # long prompts: the first slice (8 tokens) is all prompt
    input_ids = torch.randint(0, 64, (batch, seq))
    labels = input_ids.roll(-1, dims=1).clone()
    labels[:, :prompt_len] = IGNORE_INDEX
    labels[:, -1] = IGNORE_INDEX
    return {
        "model": TinyLM(),
        "batch": ((input_ids,), labels),
        "loss_fn": ring_sliced_sft_loss,
    }
