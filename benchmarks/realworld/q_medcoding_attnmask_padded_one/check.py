"""Self-contained: a tiny encoder fed masks padded with the pad id (1) gives a note different outputs per padding length."""

import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence

PAD_ID = 1


class Encoder(nn.Module):
    def __init__(self, vocab=50, dim=16, labels=6):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD_ID)
        self.attn = nn.MultiheadAttention(dim, 2, batch_first=True)
        self.head = nn.Linear(dim, labels)

    def forward(self, input_ids, attention_mask):
        h = self.emb(input_ids)
        keep = attention_mask.bool()
        h, _ = self.attn(h, h, h, key_padding_mask=~keep)
        pooled = (h * keep[..., None]).sum(1) / keep.sum(1, keepdim=True)
        return self.head(pooled)


def _collate(seqs, mask_pad):
    ids = pad_sequence(seqs, batch_first=True, padding_value=PAD_ID)
    masks = [torch.ones_like(s) for s in seqs]
    return ids, pad_sequence(masks, batch_first=True, padding_value=mask_pad)


def _check() -> str:
    torch.manual_seed(0)
    model = Encoder().eval()
    note = torch.randint(2, 50, (7,))
    short_batch = [note, torch.randint(2, 50, (9,))]
    long_batch = [note, torch.randint(2, 50, (40,))]
    with torch.no_grad():
        bug_a = model(*_collate(short_batch, PAD_ID))[0]
        bug_b = model(*_collate(long_batch, PAD_ID))[0]
        ok_a = model(*_collate(short_batch, 0))[0]
        ok_b = model(*_collate(long_batch, 0))[0]
    d_bug = (bug_a - bug_b).abs().max().item()
    d_ok = (ok_a - ok_b).abs().max().item()
    assert d_bug > 1e-2 and d_ok < 1e-5, (d_bug, d_ok)
    return (f"same note, batch-mate padded to 9 vs 40: logits differ by {d_bug:.3f} with the mask padded by the pad "
            f"id, {d_ok:.1e} with the mask padded by 0")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
