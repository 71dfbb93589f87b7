"""Self-contained: token tagger on padded sentences (pad label 0), loss over all positions vs over real tokens only."""
import torch
import torch.nn.functional as F
from torch import nn

V, C, L = 200, 5, 64  # vocab, labels (0 = [PAD] label), padded length


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.rnn = nn.GRU(32, 32, batch_first=True, bidirectional=True)
        self.cls = nn.Linear(64, C)

    def forward(self, ids):
        return self.cls(self.rnn(self.emb(ids))[0])


def _data(n=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    word_tag = torch.randint(1, C, (V,), generator=g)
    word_tag[0] = 0
    ids = torch.zeros(n, L, dtype=torch.long)
    for i in range(n):
        ln = int(torch.randint(6, 14, (1,), generator=g))
        ids[i, :ln] = torch.randint(1, V, (ln,), generator=g)
    labels = word_tag[ids]
    return ids, labels, (ids != 0)


def _loss(logits, labels, mask, masked):
    per_tok = -(F.one_hot(labels, C).float() * F.log_softmax(logits, -1)).sum(-1)
    if masked:
        return (per_tok * mask).sum() / mask.sum()
    return per_tok.mean()


def _train(masked, steps=60):
    torch.manual_seed(0)
    ids, labels, mask = _data()
    model = Tagger()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        opt.zero_grad()
        loss = _loss(model(ids), labels, mask, masked)
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(ids)
        real_loss = _loss(logits, labels, mask, masked=True).item()
        acc = (logits.argmax(-1)[mask] == labels[mask]).float().mean().item()
    return loss.item(), real_loss, acc, mask.float().mean().item()


def _check() -> str:
    rep_bad, real_bad, acc_bad, frac = _train(masked=False)
    rep_ok, real_ok, acc_ok, _ = _train(masked=True)
    assert rep_bad < 0.5 * real_bad, (rep_bad, real_bad)
    assert acc_bad + 0.1 < acc_ok and real_bad > real_ok + 0.3, (acc_bad, acc_ok, real_bad, real_ok)
    return (f"{frac:.0%} of positions are real tokens; loss over all positions reports {rep_bad:.3f} while the loss on "
            f"real tokens is {real_bad:.3f} and token accuracy {acc_bad:.2f} after 60 steps; masked loss: {real_ok:.3f}, "
            f"accuracy {acc_ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
