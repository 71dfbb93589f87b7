"""Multitask speech model: per-frame acoustic logits trained with a sequence loss from a warp-ctc style binding
(the loss and its gradient are computed together in forward, the gradient is handed back in backward), weighted
0.1 and averaged over the batch, plus an utterance-level auxiliary classification loss."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_FEAT, N_SYM, N_SPK, T = 12, 8, 4, 20
SEQ_WEIGHT = 0.1


class SeqLoss(torch.autograd.Function):
    """Per-utterance sequence cost; like the C binding, it computes the gradient w.r.t. the activations in forward."""

    @staticmethod
    def forward(ctx, acts, labels):
        logp = torch.log_softmax(acts, dim=-1)
        costs = -logp.gather(-1, labels.unsqueeze(-1)).squeeze(-1).sum(1)
        grads = torch.softmax(acts, dim=-1) - F.one_hot(labels, acts.shape[-1]).to(acts.dtype)
        ctx.grads = grads
        return costs.sum()

    @staticmethod
    def backward(ctx, grad_output):
        return ctx.grads, None


class SpeechModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.GRU(N_FEAT, 32, batch_first=True)
        self.sym_head = nn.Linear(32, N_SYM)
        self.spk_head = nn.Linear(32, N_SPK)

    def forward(self, feats):
        h, last = self.encoder(feats)
        return self.sym_head(h), self.spk_head(last[-1])


def multitask_loss(outputs, targets):
    sym_logits, spk_logits = outputs
    sym_labels, spk_labels = targets
    seq = SeqLoss.apply(sym_logits, sym_labels) / sym_logits.shape[0]
    return SEQ_WEIGHT * seq + F.cross_entropy(spk_logits, spk_labels)


def utterances(n, seed):
    g = torch.Generator().manual_seed(seed)
    sym = torch.randint(0, N_SYM, (n, T), generator=g)
    spk = torch.randint(0, N_SPK, (n,), generator=g)
    emb = torch.randn(N_SYM, N_FEAT, generator=torch.Generator().manual_seed(5))
    spk_emb = torch.randn(N_SPK, N_FEAT, generator=torch.Generator().manual_seed(6))
    feats = emb[sym] + 0.5 * spk_emb[spk][:, None, :] + 0.3 * torch.randn(n, T, N_FEAT, generator=g)
    return feats, (sym, spk)


def make_target():
    torch.manual_seed(0)
    return {
        "model": SpeechModel(),
        "batch": utterances(16, 1),
        "loss_fn": multitask_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": utterances(128, 2),
    }
