"""Self-contained: a linear head on frozen features, trained with CrossEntropyLoss on softmax outputs vs logits."""

import torch
import torch.nn.functional as F


def _run(softmax_first):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    feats = torch.randn(256, 32, generator=g)
    w_true = torch.randn(32, generator=g)
    y = (feats @ w_true > 0).long()
    fc = torch.nn.Linear(32, 2)
    opt = torch.optim.Adam(fc.parameters(), lr=5e-2)
    for _ in range(300):
        out = fc(feats)
        if softmax_first:
            out = out.softmax(dim=1)
        loss = F.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    acc = (fc(feats).argmax(1) == y).float().mean().item()
    return loss.item(), acc


def _check() -> str:
    bad_loss, bad_acc = _run(True)
    ok_loss, ok_acc = _run(False)
    floor = torch.log1p(torch.exp(torch.tensor(-1.0))).item()  # best possible CE on softmax outputs, 2 classes
    assert bad_loss > floor - 1e-3 and bad_loss > 3 * ok_loss, (bad_loss, ok_loss)
    assert bad_acc > 0.9, bad_acc
    return (f"softmax into CrossEntropyLoss: loss stuck at {bad_loss:.3f} (floor {floor:.3f}) with train acc "
            f"{bad_acc:.2f}; raw logits: loss {ok_loss:.3f}, acc {ok_acc:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
