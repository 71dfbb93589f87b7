"""Decoder-only next-token model built on nn.TransformerEncoderLayer, run over the whole sequence at once."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalDecoder(nn.Module):
    def __init__(self, vocab=32, d_model=32, n_head=4, max_len=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        layer = nn.TransformerEncoderLayer(d_model, n_head, dim_feedforward=64, dropout=0.0, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(d_model, vocab)

    def forward(self, tgt):
        positions = torch.arange(tgt.size(1), device=tgt.device)
        h = self.tok(tgt) + self.pos(positions)
        h = self.blocks(h)                       # no causal mask passed
        return self.head(h)


def make_target():
    torch.manual_seed(0)
    stream = torch.randint(0, 32, (16, 13))
    inputs, labels = stream[:, :-1], stream[:, 1:]
    return {
        "model": CausalDecoder(),
        "batch": ((inputs,), labels),
        "loss_fn": lambda logits, y: F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1)),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "causal": True,
        "sequence_dim": 1,
    }
