"""Sentence classifier with single-query attention pooling normalised by a hand-written sparsemax
(torch.autograd.Function with an explicit backward)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def _threshold(z, dim):
    srt, _ = torch.sort(z, dim=dim, descending=True)
    cs = srt.cumsum(dim) - 1
    n = z.shape[dim]
    shape = [1] * z.dim()
    shape[dim] = n
    rho = torch.arange(1, n + 1, dtype=z.dtype, device=z.device).view(shape)
    support = rho * srt > cs
    k = support.sum(dim=dim, keepdim=True)
    tau = cs.gather(dim, k - 1) / k.to(z.dtype)
    return tau, k


class SparsemaxFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, z, dim=-1):
        ctx.dim = dim
        tau, _ = _threshold(z, dim)
        out = torch.clamp(z - tau, min=0)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (out,) = ctx.saved_tensors
        dim = ctx.dim
        grad_input = grad_output.clone()
        grad_input[out == 0] = 0
        supp_size = (out > 0).sum(dim=dim, keepdim=True)
        supp_size = supp_size.to(grad_output.dtype).squeeze()
        v_hat = grad_input.sum(dim=dim) / supp_size
        v_hat = v_hat.unsqueeze(dim)
        grad_input = torch.where(out != 0, grad_input - v_hat, grad_input)
        return grad_input, None


def sparsemax(z, dim=-1):
    return SparsemaxFunction.apply(z, dim)


class SparseAttnClassifier(nn.Module):
    def __init__(self, vocab=50, d=32, n_classes=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.enc = nn.Linear(d, d)
        self.query = nn.Parameter(torch.randn(1, 1, d))
        self.out = nn.Linear(d, n_classes)

    def forward(self, ids):
        h = torch.tanh(self.enc(self.emb(ids)))                     # (B, T, d)
        scores = self.query @ h.transpose(1, 2)                      # (B, 1, T)
        attn = sparsemax(scores, dim=-1)
        pooled = (attn @ h).squeeze(1)                               # (B, d)
        return self.out(pooled)


def make_target():
    torch.manual_seed(0)
    ids = torch.randint(0, 50, (16, 6))
    y = (ids[:, 0] % 3)
    return {
        "model": SparseAttnClassifier(),
        "batch": (ids, y),
        "loss_fn": nn.CrossEntropyLoss(),
    }
