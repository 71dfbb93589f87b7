"""A CPC-style model (GRU context, one linear predictor per future step, InfoNCE with in-batch negatives)
reports per-step accuracies; the epoch accuracy adds them over the k steps and divides by the number of
batches only, as in change.diff."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_STEPS, DIM, VOCAB, SEQ = 6, 32, 50, 24


class CPC(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.enc = nn.Linear(DIM, DIM)
        self.gru = nn.GRU(DIM, DIM, batch_first=True)
        self.pred = nn.ModuleList([nn.Linear(DIM, DIM) for _ in range(N_STEPS)])

    def forward(self, tokens):
        z = self.enc(self.emb(tokens))                 # (B, T, D) sentence encodings
        c, _ = self.gru(z)
        t = SEQ - N_STEPS - 1
        losses, accs = [], []
        for k in range(1, N_STEPS + 1):
            pred = self.pred[k - 1](c[:, t])           # (B, D)
            logits = pred @ z[:, t + k].T              # positives on the diagonal
            target = torch.arange(tokens.shape[0])
            losses.append(F.cross_entropy(logits, target))
            accs.append((logits.argmax(1) == target).float().mean())
        return torch.stack(losses), torch.stack(accs)


def _corpus(n, g):
    start = torch.randint(0, VOCAB, (n, 1), generator=g)
    step = torch.randint(1, 4, (n, 1), generator=g)
    seq = (start + step * torch.arange(SEQ)) % VOCAB
    noise = torch.rand(n, SEQ, generator=g) < 0.1
    return torch.where(noise, torch.randint(0, VOCAB, (n, SEQ), generator=g), seq)


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    data = _corpus(1024, g)
    model = CPC()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    n_batches = len(data) // 64
    for epoch in range(4):
        total_acc = {k: 0.0 for k in range(1, N_STEPS + 1)}
        for b in range(n_batches):
            nce, acc = model(data[b * 64 : (b + 1) * 64])
            for k in range(N_STEPS):
                total_acc[k + 1] += acc[k].item()
            opt.zero_grad()
            nce.sum().backward()
            opt.step()
    reported = sum(total_acc.values()) / n_batches
    per_step = [v / n_batches for v in total_acc.values()]
    true_acc = sum(per_step) / N_STEPS
    assert reported > 1.0, reported
    assert all(0.0 <= a <= 1.0 for a in per_step) and true_acc <= 1.0
    return (
        f"reported epoch accuracy {reported:.2f} (> 1); the {N_STEPS} per-step accuracies are "
        f"{min(per_step):.2f}..{max(per_step):.2f}, mean {true_acc:.2f}"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
