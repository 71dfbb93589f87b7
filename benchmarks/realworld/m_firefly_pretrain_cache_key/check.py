"""Self-contained: a cache keyed by file name returns ids from the previous model's tokenizer to the new model."""

import math

import torch

_DISK = {}


def _tokenize(words, vocab_perm):
    return vocab_perm[words]


def _load_dataset(file_name, words, vocab_perm, model_tag, key_includes_model):
    key = (file_name, model_tag) if key_includes_model else file_name
    if key not in _DISK:
        _DISK[key] = _tokenize(words, vocab_perm)
    return _DISK[key]


def _check() -> str:
    _DISK.clear()
    g = torch.Generator().manual_seed(0)
    n_words = 64
    # a Markov chain of words: each word is followed by one of 3 likely successors
    succ = torch.randint(0, n_words, (n_words, 3), generator=g)
    words = [0]
    for _ in range(6000):
        words.append(succ[words[-1], torch.randint(0, 3, (1,), generator=g)].item())
    words = torch.tensor(words)
    tok_a = torch.randperm(n_words, generator=g)  # first model's tokenizer
    tok_b = torch.randperm(n_words, generator=g)  # second model's tokenizer
    # the second model "knows" text tokenized its own way: a bigram LM fit on tok_b ids
    ids_b = tok_b[words]
    counts = torch.ones(n_words, n_words)
    counts.index_put_((ids_b[:-1], ids_b[1:]), torch.ones(len(ids_b) - 1), accumulate=True)
    logp = (counts / counts.sum(1, keepdim=True)).log()

    def nll(ids):
        return -logp[ids[:-1], ids[1:]].mean().item()

    _load_dataset("domain.jsonl", words, tok_a, "qwen", key_includes_model=False)  # run 1
    stale = _load_dataset("domain.jsonl", words, tok_b, "llama", key_includes_model=False)  # run 2
    _DISK.clear()
    _load_dataset("domain.jsonl", words, tok_a, "qwen", key_includes_model=True)
    fresh = _load_dataset("domain.jsonl", words, tok_b, "llama", key_includes_model=True)
    stale_nll, fresh_nll = nll(stale), nll(fresh)
    assert torch.equal(stale, tok_a[words]) and torch.equal(fresh, ids_b)
    assert stale_nll > 2.5 * fresh_nll and stale_nll > 0.8 * math.log(n_words), (stale_nll, fresh_nll)
    return (
        f"cache keyed by file name hands the second model the first tokenizer's ids: its loss {stale_nll:.2f} "
        f"(uniform {math.log(n_words):.2f}) vs {fresh_nll:.2f} on its own tokenization"
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
