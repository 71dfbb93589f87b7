"""Self-contained: a transformation cache whose key leaves out the tokenizer. Tokenize with tokenizer A, switch
to tokenizer B (different id assignment), and the cache hands B's model token ids produced by A."""
import hashlib
import json

import torch
import torch.nn.functional as F

VOCAB = 50


def _tokenizer(seed):
    perm = torch.randperm(VOCAB, generator=torch.Generator().manual_seed(seed))
    return {"name": f"tok{seed}", "word_to_id": perm}


def _corpus(n_seq=64, length=32):
    g = torch.Generator().manual_seed(7)
    trans = torch.softmax(3.0 * torch.randn(VOCAB, VOCAB, generator=g), dim=-1)
    words = torch.empty(n_seq, length, dtype=torch.long)
    words[:, 0] = torch.randint(0, VOCAB, (n_seq,), generator=g)
    for t in range(1, length):
        words[:, t] = torch.multinomial(trans[words[:, t - 1]], 1, generator=g).squeeze(1)
    return words, trans


def _cache_key(dataset_fp, fn_name, fn_args, tok, include_tokenizer):
    parts = [dataset_fp, fn_name, json.dumps(fn_args, sort_keys=True)]
    if include_tokenizer:
        parts.append(tok["name"])
    parts.append("v1")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def _get_dataset(cache, words, tok, include_tokenizer):
    key = _cache_key("sft_mix_fp", "sft_tokenize", {"max_seq_length": 32}, tok, include_tokenizer)
    if key not in cache:
        cache[key] = tok["word_to_id"][words]
    return cache[key]


def _lm_for(tok, trans):
    """A model trained for tokenizer `tok`: bigram log-probs expressed in tok's ids."""
    inv = torch.empty(VOCAB, dtype=torch.long)
    inv[tok["word_to_id"]] = torch.arange(VOCAB)
    logp = trans.log()
    return logp[inv][:, inv]  # [prev_id, next_id]


def _loss(lm, ids):
    return F.nll_loss(lm[ids[:, :-1]].reshape(-1, VOCAB), ids[:, 1:].reshape(-1)).item()


def _run(include_tokenizer):
    words, trans = _corpus()
    tok_a, tok_b = _tokenizer(1), _tokenizer(2)
    cache = {}
    ids_a = _get_dataset(cache, words, tok_a, include_tokenizer)
    loss_a = _loss(_lm_for(tok_a, trans), ids_a)
    ids_b = _get_dataset(cache, words, tok_b, include_tokenizer)
    loss_b = _loss(_lm_for(tok_b, trans), ids_b)
    return loss_a, loss_b, len(cache)


def _check() -> str:
    a_bad, b_bad, n_bad = _run(include_tokenizer=False)
    a_ok, b_ok, n_ok = _run(include_tokenizer=True)
    assert n_bad == 1 and n_ok == 2, (n_bad, n_ok)
    assert b_bad > 2 * a_bad and abs(b_ok - a_ok) < 0.05, (a_bad, b_bad, a_ok, b_ok)
    return (f"cache key without tokenizer: loss with tokenizer A {a_bad:.2f}, after switching to B {b_bad:.2f} "
            f"(stale ids reused, 1 cache entry); keyed on tokenizer: A {a_ok:.2f}, B {b_ok:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
