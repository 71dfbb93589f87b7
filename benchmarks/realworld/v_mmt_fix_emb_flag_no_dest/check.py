"""Self-contained: the option definitions before/after the edit; a tagger whose pretrained word embeddings should be
fixed by default, trained a few steps; do the embedding weights move?"""

import argparse

import torch
import torch.nn as nn


def _parser(with_dest):
    p = argparse.ArgumentParser()
    if with_dest:
        p.add_argument("--fix_emb", dest="fix_emb", action="store_true", default=True)
        p.add_argument("--no_fix_emb", dest="fix_emb", action="store_false")
    else:
        p.add_argument("--fix_emb", action="store_true")
        p.add_argument("--no_fix_emb", action="store_false")
    return p


def _train(opt):
    torch.manual_seed(0)
    pretrained = torch.randn(50, 16)
    emb = nn.Embedding.from_pretrained(pretrained.clone(), freeze=False)
    emb.weight.requires_grad = not opt.fix_emb
    head = nn.Linear(16, 5)
    params = [p for p in list(emb.parameters()) + list(head.parameters()) if p.requires_grad]
    optim = torch.optim.Adam(params, lr=1e-2)
    g = torch.Generator().manual_seed(1)
    for _ in range(30):
        ids = torch.randint(0, 50, (32, 8), generator=g)
        tags = ids % 5
        optim.zero_grad()
        nn.functional.cross_entropy(head(emb(ids)).flatten(0, 1), tags.flatten()).backward()
        optim.step()
    return (emb.weight.detach() - pretrained).abs().max().item()


def _check() -> str:
    bug_default = _train(_parser(False).parse_args([]))
    bug_flag = _train(_parser(False).parse_args(["--fix_emb"]))
    ok_default = _train(_parser(True).parse_args([]))
    assert bug_default > 0.05 and ok_default == 0.0, (bug_default, bug_flag, ok_default)
    return (
        f"embeddings meant to stay fixed moved by up to {bug_default:.3f} after 30 steps (default options); "
        f"with the dest'd options they stay at {ok_default:.1f}"
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
