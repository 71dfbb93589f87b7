import json
import math
import pathlib
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

V = 32


def _corpus(seed, n=200, length=24):
    """Word sequences from a fixed Markov chain: each word strongly predicts the next."""
    g = torch.Generator().manual_seed(0)
    nxt = torch.randint(0, V, (V, 2), generator=g)
    g = torch.Generator().manual_seed(seed)
    seqs = []
    for _ in range(n):
        w = int(torch.randint(0, V, (1,), generator=g))
        seq = [w]
        for _ in range(length - 1):
            w = int(nxt[w, int(torch.randint(0, 2, (1,), generator=g))])
            seq.append(w)
        seqs.append(seq)
    return seqs


def _tokenizer(seed):
    perm = torch.randperm(V, generator=torch.Generator().manual_seed(seed)).tolist()
    return lambda words: [perm[w] for w in words]


def _prepare(dataset, tokenize, cache_dir):
    """Tokenised dataset cached under a key made from the dataset alone (not the tokenizer)."""
    path = pathlib.Path(cache_dir) / "prepared.json"
    if path.exists():
        return json.loads(path.read_text())
    ids = [tokenize(s) for s in dataset]
    path.write_text(json.dumps(ids))
    return ids


class BigramLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.out = nn.Linear(32, V)

    def forward(self, ids):
        return self.out(torch.tanh(self.emb(ids)))


def _lm_loss(model, ids):
    ids = torch.tensor(ids)
    logits = model(ids[:, :-1])
    return F.cross_entropy(logits.reshape(-1, V), ids[:, 1:].reshape(-1))


def _check() -> str:
    torch.manual_seed(0)
    tok_a, tok_b = _tokenizer(1), _tokenizer(2)
    # model "pretrained" with tokenizer B (the new base model)
    model_b = BigramLM()
    opt = torch.optim.Adam(model_b.parameters(), lr=3e-2)
    pre = [tok_b(s) for s in _corpus(5)]
    for _ in range(150):
        opt.zero_grad()
        _lm_loss(model_b, pre).backward()
        opt.step()
    dataset = _corpus(7)
    with tempfile.TemporaryDirectory() as cache:
        _prepare(dataset, tok_a, cache)  # first run, with the old base model's tokenizer
        stale = _prepare(dataset, tok_b, cache)  # second run, new base model, same prepared path
    fresh = [tok_b(s) for s in dataset]
    with torch.no_grad():
        loss_stale, loss_fresh = _lm_loss(model_b, stale).item(), _lm_loss(model_b, fresh).item()
    assert loss_stale > math.log(V) and loss_stale > 3 * loss_fresh, (loss_stale, loss_fresh)
    return f"starting loss {loss_stale:.2f} on the reused prepared dataset, {loss_fresh:.2f} after re-tokenising"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
