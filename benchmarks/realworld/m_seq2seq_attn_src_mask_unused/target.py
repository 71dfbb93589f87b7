"""GRU encoder-decoder with dot-product (Luong) attention over the encoder states. The batch carries a source mask
(1 = real token, 0 = PAD) built by the collate function, but the attention never uses it."""

import torch
from torch import nn
import torch.nn.functional as F

PAD = 0
VOCAB = 40


class Seq2SeqAttn(nn.Module):
    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.src_emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.enc = nn.GRU(dim, dim, batch_first=True)
        self.dec = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(2 * dim, vocab)
        self.last_attn = None

    def forward(self, src, tgt_in, src_mask):
        enc, _ = self.enc(self.src_emb(src))
        last = src_mask.sum(1) - 1                   # decoder starts from the state at the last real token
        h = enc[torch.arange(src.shape[0]), last].unsqueeze(0)
        dec, _ = self.dec(self.tgt_emb(tgt_in), h)
        scores = dec @ enc.transpose(1, 2)          # (B, T_tgt, T_src)
        attn = F.softmax(scores, dim=-1)
        self.last_attn = attn.detach()
        ctx = attn @ enc
        return self.out(torch.cat([dec, ctx], -1))


def collate(pairs):
    """Right-pad sources and targets; returns ((src, tgt_in, src_mask), tgt_out). src_mask: 1 = real token, 0 = PAD."""
    s_len = max(len(s) for s, _ in pairs)
    t_len = max(len(t) for _, t in pairs) + 1
    src = torch.full((len(pairs), s_len), PAD)
    tgt = torch.full((len(pairs), t_len + 1), PAD)
    for i, (s, t) in enumerate(pairs):
        src[i, : len(s)] = torch.tensor(s)
        tgt[i, : len(t) + 2] = torch.tensor([1] + t + [2])
    return (src, tgt[:, :-1], (src != PAD).long()), tgt[:, 1:]


def make_pairs(n, seed):
    g = torch.Generator().manual_seed(seed)
    pairs = []
    for _ in range(n):
        L = int(torch.randint(3, 12, (1,), generator=g))
        s = torch.randint(3, VOCAB, (L,), generator=g).tolist()
        pairs.append((s, s[::-1]))  # "translate" = reverse
    return pairs


def make_target():
    torch.manual_seed(0)
    model = Seq2SeqAttn()
    return {
        "model": model,
        "batch": collate(make_pairs(16, seed=1)),
        "loss_fn": lambda logits, y: F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1),
                                                     ignore_index=PAD),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "call_model": lambda m, inputs: m(*inputs),
        "train_data": [collate(make_pairs(16, seed=s)) for s in range(2, 12)],
        "val_data": [collate(make_pairs(16, seed=s)) for s in range(50, 53)],
    }
