"""A bigram LM pretrained on tokenizer B's ids, then fed the ids cached for tokenizer A (same text)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

TEXT = ("the quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat " * 40).strip()


def _vocab(seed):
    chars = sorted(set(TEXT))
    g = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(chars), generator=g).tolist()
    return {c: order[i] for i, c in enumerate(chars)}, len(chars)


def _encode(vocab):
    return torch.tensor([vocab[c] for c in TEXT])


def _lm_loss(model, ids):
    return F.cross_entropy(model(ids[:-1]), ids[1:])


def _check() -> str:
    vocab_a, n = _vocab(1)
    vocab_b, _ = _vocab(2)
    torch.manual_seed(0)
    model_b = nn.Embedding(n, n)  # bigram logits table, "pretrained" on tokenizer B
    opt = torch.optim.Adam(model_b.parameters(), lr=0.1)
    ids_b = _encode(vocab_b)
    for _ in range(200):
        opt.zero_grad()
        _lm_loss(model_b, ids_b).backward()
        opt.step()
    cache = {"dataset.jsonl": _encode(vocab_a)}  # written while fine-tuning model A; key ignores the tokenizer
    stale = cache["dataset.jsonl"]
    with torch.no_grad():
        fresh_loss = _lm_loss(model_b, ids_b).item()
        stale_loss = _lm_loss(model_b, stale).item()
    assert stale_loss > 3 * fresh_loss and stale_loss > 4.0, (fresh_loss, stale_loss)
    return f"model B loss {fresh_loss:.2f} on its own token ids, {stale_loss:.2f} on the cached ids of tokenizer A"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
