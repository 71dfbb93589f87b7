"""Self-contained: a dataset cache keyed only by dataset name. Run 1 tokenizes with tokenizer A and fills the
cache; run 2 switches to tokenizer B but loads the cached A ids. The bigram LM trained on those ids is scored on
text tokenized with B (what generation and eval use) and compared with a run that re-tokenizes."""

import torch
import torch.nn.functional as F

V = 64
_CACHE = {}


def _corpus(n_words=6000, seed=0):
    # a word stream with strong bigram structure over V word types
    g = torch.Generator().manual_seed(seed)
    nxt = torch.randint(0, V, (V, 3), generator=g)
    w = [0]
    for _ in range(n_words - 1):
        w.append(int(nxt[w[-1], torch.randint(0, 3, (1,), generator=g)]))
    return torch.tensor(w)


def _tokenizer(name):
    # each tokenizer maps word types to its own ids
    perm = torch.randperm(V, generator=torch.Generator().manual_seed({"A": 11, "B": 22}[name]))
    return lambda words: perm[words]


def _load_tokenized(dataset, tokenizer_name, words, key_has_tokenizer):
    key = (dataset, tokenizer_name) if key_has_tokenizer else dataset
    if key not in _CACHE:
        _CACHE[key] = _tokenizer(tokenizer_name)(words)
    return _CACHE[key]


def _train_bigram(ids, steps=150):
    torch.manual_seed(0)
    logits = torch.zeros(V, V, requires_grad=True)
    opt = torch.optim.Adam([logits], lr=0.1)
    for _ in range(steps):
        loss = F.cross_entropy(logits[ids[:-1]], ids[1:])
        opt.zero_grad()
        loss.backward()
        opt.step()
    return logits.detach()


def _eval(logits, ids):
    return F.cross_entropy(logits[ids[:-1]], ids[1:]).item()


def _run(key_has_tokenizer):
    _CACHE.clear()
    words = _corpus()
    val_words = _corpus(2000, seed=0)[1000:]
    _load_tokenized("wiki", "A", words, key_has_tokenizer)  # run 1, tokenizer A
    train_ids = _load_tokenized("wiki", "B", words, key_has_tokenizer)  # run 2, tokenizer B
    model = _train_bigram(train_ids)
    return _eval(model, _tokenizer("B")(val_words))


def _check() -> str:
    stale = _run(key_has_tokenizer=False)
    fresh = _run(key_has_tokenizer=True)
    assert stale > 2.5 * fresh and stale > 3.0, (stale, fresh)
    return (f"cache keyed by dataset only: run with tokenizer B trains on tokenizer-A ids, eval loss {stale:.2f}; "
            f"cache keyed by (dataset, tokenizer): eval loss {fresh:.2f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
