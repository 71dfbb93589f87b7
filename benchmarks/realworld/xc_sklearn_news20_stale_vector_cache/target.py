"""Bag-of-words newsgroup classifier (4 groups) on vectorized documents loaded through a cached fetcher.

fetch_vectorized() lists the documents of a subset, takes labels from that listing, and vectorizes them; the
vectorized matrices are cached in the data home so later runs skip the vectorization.
"""
import os
import tempfile
from collections import namedtuple

import torch
import torch.nn as nn

N_GROUPS, VOCAB, DOC_LEN = 4, 300, 40
CACHE_NAME = "news_vectorized.pt"
Doc = namedtuple("Doc", "filename group subset tokens")


def _raw_corpus():
    g = torch.Generator().manual_seed(11)
    word_probs = torch.softmax(3.0 * torch.randn(N_GROUPS, VOCAB, generator=g), dim=1)
    docs = []
    for subset, n in (("train", 400), ("test", 200)):
        for _ in range(n):
            grp = int(torch.randint(0, N_GROUPS, (1,), generator=g))
            toks = torch.multinomial(word_probs[grp], DOC_LEN, replacement=True, generator=g)
            fname = f"{int(torch.randint(10000, 99999, (1,), generator=g))}"
            docs.append(Doc(fname, grp, subset, toks))
    return docs


RAW = _raw_corpus()


def list_documents(subset):
    docs = [d for d in RAW if d.subset == subset]
    return sorted(docs, key=lambda d: (d.group, d.filename))


def vectorize(docs):
    X = torch.zeros(len(docs), VOCAB)
    for i, d in enumerate(docs):
        X[i].index_add_(0, d.tokens, torch.ones(DOC_LEN))
    return X / X.norm(dim=1, keepdim=True)


def fetch_vectorized(data_home):
    train_docs, test_docs = list_documents("train"), list_documents("test")
    y_train = torch.tensor([d.group for d in train_docs])
    y_test = torch.tensor([d.group for d in test_docs])
    path = os.path.join(data_home, CACHE_NAME)
    if os.path.exists(path):
        X_train, X_test = torch.load(path)
    else:
        X_train, X_test = vectorize(train_docs), vectorize(test_docs)
        torch.save((X_train, X_test), path)
    return X_train, y_train, X_test, y_test


def _user_data_home():
    """The data home as it is on the user's machine: it holds the cache from an earlier run, written by the
    previous release of the fetcher, whose listing was plain filename order."""
    home = tempfile.mkdtemp(prefix="news_home_")
    old_listing = {s: sorted([d for d in RAW if d.subset == s], key=lambda d: d.filename) for s in ("train", "test")}
    torch.save((vectorize(old_listing["train"]), vectorize(old_listing["test"])), os.path.join(home, CACHE_NAME))
    return home


class BowClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(VOCAB, 64), nn.ReLU(), nn.Linear(64, N_GROUPS))

    def forward(self, x):
        return self.net(x)


def make_target():
    torch.manual_seed(0)
    home = _user_data_home()
    X_train, y_train, X_test, y_test = fetch_vectorized(home)
    return {
        "model": BowClassifier(),
        "batch": (X_train[:64], y_train[:64]),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda out, y: (out.argmax(1) == y).float().mean().item(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=3e-3),
        "train_data": (X_train, y_train),
        "val_data": (X_test, y_test),
    }
