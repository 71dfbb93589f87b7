"""The reported accuracy thresholds raw logits at 0.5; thresholding probabilities gives a very different number."""

import importlib.util
from pathlib import Path

import torch


def _load():
    p = Path(__file__).with_name("target.py")
    s = importlib.util.spec_from_file_location("u_gae_target", p)
    m = importlib.util.module_from_spec(s)
    s.loader.exec_module(m)
    return m


def _auc(scores, labels):
    pos, neg = scores[labels == 1], scores[labels == 0]
    return (pos[:, None] > neg[None, :]).float().mean().item()


def _check() -> str:
    m = _load()
    t = m.make_target()
    model, ((x, adj), y), loss_fn = t["model"], t["batch"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    losses, reported = [], []
    for step in range(120):
        logits = model(x, adj)
        loss = loss_fn(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        reported.append(t["metric_fn"](logits.detach(), y))
    with torch.no_grad():
        logits = model(x, adj)
    rep = t["metric_fn"](logits, y)
    true_acc = ((torch.sigmoid(logits) >= 0.5).float() == y).float().mean().item()
    auc = _auc(logits, y)
    between = ((logits > 0) & (logits < 0.5)).float().mean().item()
    assert losses[-1] < 0.7 * losses[0] and auc > 0.9, (losses[0], losses[-1], auc)
    assert abs(rep - true_acc) > 0.02 and between > 0.02, (rep, true_acc, between)
    return (f"loss {losses[0]:.3f} -> {losses[-1]:.3f}, AUC {auc:.3f}; reported acc (logits>=0.5) {rep:.3f} vs "
            f"sigmoid(logits)>=0.5 acc {true_acc:.3f}; {between:.1%} of entries have logits in (0, 0.5)")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
