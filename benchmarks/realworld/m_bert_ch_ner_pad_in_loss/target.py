"""Token tagger on padded batches; the loss averages cross-entropy over every position, pads included."""

import torch
from torch import nn

VOCAB, N_TAGS, PAD_ID, PAD_TAG = 300, 8, 0, 0  # tag 0 is the padding label, 1 is 'O', 2.. are entity tags


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, 32, padding_idx=PAD_ID)
        self.lstm = nn.LSTM(32, 32, batch_first=True, bidirectional=True)
        self.classifier = nn.Linear(64, N_TAGS)

    def forward(self, input_ids, attention_mask):
        h, _ = self.lstm(self.embed(input_ids) * attention_mask.unsqueeze(-1))
        return self.classifier(h)


def tagging_loss(logits, labels):
    return nn.functional.cross_entropy(logits.reshape(-1, N_TAGS), labels.reshape(-1))


def make_batch(n=64, max_len=48, seed=0):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(8, 17, (n,), generator=g)
    ids = torch.randint(1, VOCAB, (n, max_len), generator=g)
    # entity tokens (ids < 40) get tag 2 + id % 6, everything else is 'O'
    tags = torch.where(ids < 40, 2 + ids % 6, torch.ones_like(ids))
    mask = (torch.arange(max_len)[None, :] < lengths[:, None]).long()
    ids = ids * mask + PAD_ID * (1 - mask)
    tags = tags * mask + PAD_TAG * (1 - mask)
    return {"input_ids": ids, "attention_mask": mask}, tags


def make_target():
    torch.manual_seed(0)
    inputs, tags = make_batch()
    val_inputs, val_tags = make_batch(seed=1)
    return {
        "model": Tagger(),
        "batch": (inputs, tags),
        "loss_fn": tagging_loss,
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "val_data": [(val_inputs, val_tags)],
    }
