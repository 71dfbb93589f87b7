"""Self-contained: processed-query cache keyed only on the training data; the tokenizer config changes underneath it."""

import hashlib

import torch
import torch.nn.functional as F

DIM = 512


def whitespace_tokens(text):
    return text.lower().split()


def char_tokens(text):
    t = text.lower().replace(" ", "_")
    return [t[i:i + 2] for i in range(len(t) - 1)]


def featurize(tokens):
    v = torch.zeros(DIM)
    for tok in tokens:
        v[int(hashlib.md5(tok.encode()).hexdigest(), 16) % DIM] += 1.0
    return v


def make_queries(seed, n):
    g = torch.Generator().manual_seed(seed)
    a = ["weather", "rain", "sunny", "forecast", "cold", "windy", "snow", "humid"]
    b = ["play", "song", "music", "album", "artist", "volume", "track", "radio"]
    filler = ["the", "please", "today", "for", "me", "now", "can", "you", "what", "is"]
    texts, labels = [], []
    for _ in range(n):
        lab = int(torch.randint(0, 2, (1,), generator=g))
        words = [filler[int(i)] for i in torch.randint(0, len(filler), (5,), generator=g)]
        vocab = a if lab == 0 else b
        words.insert(int(torch.randint(0, 5, (1,), generator=g)), vocab[int(torch.randint(0, 8, (1,), generator=g))])
        texts.append(" ".join(words))
        labels.append(lab)
    return texts, torch.tensor(labels)


class QueryCache:
    """Processed-query cache; the key only covers the training data (the bug)."""

    def __init__(self):
        self.store = {}

    def get(self, texts, tokenizer):
        key = hashlib.md5("\n".join(texts).encode()).hexdigest()
        if key not in self.store:
            self.store[key] = torch.stack([featurize(tokenizer(t)) for t in texts])
        return self.store[key]


def train_and_eval(cache, tokenizer, tr, te):
    torch.manual_seed(0)
    x = cache.get(tr[0], tokenizer)
    w = torch.zeros(DIM, 2, requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.05)
    for _ in range(150):
        opt.zero_grad()
        F.cross_entropy(x @ w, tr[1]).backward()
        opt.step()
    train_acc = float(((x @ w).argmax(1) == tr[1]).float().mean())
    xt = torch.stack([featurize(tokenizer(t)) for t in te[0]])  # inference always runs the live pipeline
    test_acc = float(((xt @ w).argmax(1) == te[1]).float().mean())
    return train_acc, test_acc


def _check() -> str:
    tr, te = make_queries(0, 400), make_queries(1, 200)
    cache = QueryCache()
    a_train, a_test = train_and_eval(cache, whitespace_tokens, tr, te)
    b_train, b_test = train_and_eval(cache, char_tokens, tr, te)  # config changed, cache reused
    c_train, c_test = train_and_eval(QueryCache(), char_tokens, tr, te)  # cache cleared
    assert a_test > 0.9 and c_test > 0.85, (a_test, c_test)
    assert b_train > 0.9 and b_test < 0.7, (b_train, b_test)
    return (f"whitespace tokenizer: test acc {a_test:.2f}; after switching to character tokenizer with the cache kept: "
            f"train {b_train:.2f} / test {b_test:.2f}; cache cleared: test {c_test:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
