"""Self-contained: a token cache built with tokenizer A is reused after switching to tokenizer B (cache keyed by dataset name only)."""
import os
import tempfile

import torch
import torch.nn.functional as F

TEXT = ("natalia sold clips to forty eight of her friends in april and then she sold half as many clips in may "
        "how many clips did natalia sell altogether in april and may ") * 40


def _tokenizer(order_seed):
    chars = sorted(set(TEXT))
    g = torch.Generator().manual_seed(order_seed)
    perm = torch.randperm(len(chars), generator=g).tolist()
    stoi = {c: perm[i] for i, c in enumerate(chars)}
    itos = {v: k for k, v in stoi.items()}
    return (lambda s: torch.tensor([stoi[c] for c in s])), (lambda ids: "".join(itos[int(i)] for i in ids)), len(chars)


def _prepare(cache_root, full_name, encode, text):
    cache = os.path.join(cache_root, full_name.replace("/", "_") + ".pt")   # key: dataset name only
    if os.path.exists(cache):
        return torch.load(cache)
    ids = encode(text)
    torch.save(ids, cache)
    return ids


def _train_bigram(ids, V, steps=300):
    torch.manual_seed(0)
    logits = torch.zeros(V, V, requires_grad=True)
    opt = torch.optim.Adam([logits], lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        loss = F.cross_entropy(logits[ids[:-1]], ids[1:])
        loss.backward()
        opt.step()
    return logits.detach(), loss.item()


def _check() -> str:
    split = int(len(TEXT) * 0.9)
    enc_a, _, V = _tokenizer(1)
    enc_b, dec_b, _ = _tokenizer(2)
    with tempfile.TemporaryDirectory() as root:
        _prepare(root, "TinyGSM/TinyGSM/train", enc_a, TEXT[:split])          # earlier run, tokenizer A
        stale = _prepare(root, "TinyGSM/TinyGSM/train", enc_b, TEXT[:split])  # new run, tokenizer B: cache hit
    fresh = enc_b(TEXT[:split])
    val = enc_b(TEXT[split:])
    mismatch = (stale != fresh).float().mean().item()
    lg_stale, tr_stale = _train_bigram(stale, V)
    lg_fresh, tr_fresh = _train_bigram(fresh, V)
    val_stale = F.cross_entropy(lg_stale[val[:-1]], val[1:]).item()
    val_fresh = F.cross_entropy(lg_fresh[val[:-1]], val[1:]).item()
    assert mismatch > 0.5, mismatch
    assert abs(tr_stale - tr_fresh) < 0.05, (tr_stale, tr_fresh)
    assert val_stale > 2 * val_fresh + 1.0, (val_stale, val_fresh)
    return (f"{mismatch:.0%} of cached token ids differ from tokenizer B's; train loss looks normal ({tr_stale:.3f} vs "
            f"{tr_fresh:.3f} fresh) but val loss on B-tokenized text is {val_stale:.2f} vs {val_fresh:.2f}; decoded "
            f"cache reads {dec_b(stale[:24])!r}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
