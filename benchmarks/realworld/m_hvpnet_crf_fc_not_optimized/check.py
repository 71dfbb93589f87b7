"""Self-contained: a tagger whose optimizer groups miss the classifier/transition parameters; they never move."""

import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.bert = nn.Sequential(nn.Embedding(100, 32), nn.Linear(32, 32), nn.Tanh())
        self.fc = nn.Linear(32, 5)
        self.crf_transitions = nn.Parameter(torch.randn(5, 5) * 0.1)

    def forward(self, ids):
        emissions = self.fc(self.bert(ids))
        # pairwise score in the spirit of a CRF: emission + transition from the previous gold-free argmax proxy
        return emissions + emissions.softmax(-1).roll(1, dims=1) @ self.crf_transitions


def _groups(model, with_head):
    groups = [{"params": [p for n, p in model.named_parameters() if n.startswith("bert")], "lr": 3e-3}]
    head = {"params": [p for n, p in model.named_parameters() if n.startswith(("fc", "crf"))], "lr": 5e-2}
    if with_head:
        groups.append(head)
    return groups


def _train(with_head):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, 100, (128, 12), generator=g)
    tags = ids % 5
    model = Tagger()
    fc0, crf0 = model.fc.weight.detach().clone(), model.crf_transitions.detach().clone()
    opt = torch.optim.AdamW(_groups(model, with_head))
    for _ in range(60):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(ids).reshape(-1, 5), tags.reshape(-1))
        loss.backward()
        opt.step()
    moved = (model.fc.weight - fc0).abs().max().item() + (model.crf_transitions - crf0).abs().max().item()
    acc = (model(ids).argmax(-1) == tags).float().mean().item()
    return loss.item(), moved, acc, model.fc.weight.grad.abs().sum().item()


def _check() -> str:
    bad_loss, bad_moved, bad_acc, bad_grad = _train(with_head=False)
    ok_loss, ok_moved, ok_acc, _ = _train(with_head=True)
    assert bad_moved == 0.0 and bad_grad > 0, (bad_moved, bad_grad)  # gradients exist, weights never change
    assert ok_moved > 1e-2 and ok_loss < 0.7 * bad_loss, (ok_moved, ok_loss, bad_loss)
    return (
        f"head/transition params left out of the optimizer: they move by {bad_moved:.1f} despite gradients "
        f"(|grad| {bad_grad:.2f}), loss {bad_loss:.3f}, acc {bad_acc:.2f}; with the group appended: loss {ok_loss:.3f}, acc {ok_acc:.2f}"
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
