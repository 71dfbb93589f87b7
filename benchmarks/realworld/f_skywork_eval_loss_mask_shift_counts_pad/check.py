"""A tiny LM evaluated with the shifted loss mask taken from the wrong end: each padded row adds the loss of predicting
a pad token after its last real token, so the batched loss is far above the one-at-a-time loss."""

import torch
import torch.nn.functional as F

PAD, LEN = 0, 16


def _texts(n, seed):
    g = torch.Generator().manual_seed(seed)
    rows = []
    for _ in range(n):
        start = int(torch.randint(1, 21, (1,), generator=g))
        length = int(torch.randint(5, LEN + 1, (1,), generator=g))
        rows.append([(start + k - 1) % 20 + 1 for k in range(length)])  # tokens 1..20 counting upward
    return rows


def _pad(rows):
    ids = torch.full((len(rows), max(map(len, rows))), PAD)
    mask = torch.zeros_like(ids)
    for i, r in enumerate(rows):
        ids[i, : len(r)] = torch.tensor(r)
        mask[i, : len(r)] = 1
    return ids, mask


def _batch_loss(model, ids, mask, wrong_end):
    logits = model(ids)
    token_loss = F.cross_entropy(logits[:, :-1].transpose(1, 2), ids[:, 1:], reduction="none")
    loss_mask = (mask[:, :-1] if wrong_end else mask[:, 1:]).float()
    return (token_loss * loss_mask).sum() / loss_mask.sum()


def _check() -> str:
    torch.manual_seed(0)
    model = torch.nn.Embedding(21, 21)  # a bigram LM: logits of the next token
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    train = _texts(256, 1)
    for _ in range(10):
        for i in range(0, 256, 16):
            ids, mask = _pad(train[i : i + 16])
            loss = _batch_loss(model, ids, mask, wrong_end=False)
            opt.zero_grad()
            loss.backward()
            opt.step()
    texts = _texts(64, 2)
    with torch.no_grad():
        one = sum(_batch_loss(model, *_pad([t]), wrong_end=True).item() * (len(t) - 1) for t in texts)
        one /= sum(len(t) - 1 for t in texts)
        eight = [_batch_loss(model, *_pad(texts[i : i + 8]), wrong_end=True).item() for i in range(0, 64, 8)]
        eight_ok = [_batch_loss(model, *_pad(texts[i : i + 8]), wrong_end=False).item() for i in range(0, 64, 8)]
    batched, batched_ok = sum(eight) / 8, sum(eight_ok) / 8
    assert batched > 2.5 * one, (one, batched)
    assert abs(batched_ok - one) < 0.3 * one + 0.05, (one, batched_ok)
    return f"eval loss batch size 1: {one:.3f}; batch size 8 (right padding): {batched:.3f}; mask from [:, 1:]: {batched_ok:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
