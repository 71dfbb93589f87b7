"""The same source sentence gets different outputs depending on how much padding its batch adds, and attention mass
lands on PAD positions; with the mask applied to the scores the outputs do not depend on the padding."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("m_seq2seq_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _masked_forward(self, src, tgt_in, src_mask):
    enc, _ = self.enc(self.src_emb(src))
    last = src_mask.sum(1) - 1
    h = enc[torch.arange(src.shape[0]), last].unsqueeze(0)
    dec, _ = self.dec(self.tgt_emb(tgt_in), h)
    scores = (dec @ enc.transpose(1, 2)).masked_fill(src_mask[:, None, :] == 0, float("-inf"))
    attn = F.softmax(scores, dim=-1)
    self.last_attn = attn.detach()
    return self.out(torch.cat([dec, attn @ enc], -1))


def _train(t, steps=60):
    model = t["model"]
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for i in range(steps):
        x, y = t["train_data"][i % len(t["train_data"])]
        opt.zero_grad()
        t["loss_fn"](model(*x), y).backward()
        opt.step()
    return model


def _padding_effect(mod, model):
    short = ([5, 9, 13, 7], [7, 13, 9, 5])
    long = (list(range(3, 14)), list(range(13, 2, -1)))
    (s1, t1, m1), _ = mod.collate([short])
    (s2, t2, m2), _ = mod.collate([short, long])
    model.eval()
    with torch.no_grad():
        a = model(s1, t1, m1)[0]
        b = model(s2, t2, m2)[0, : a.shape[0]]
        pad_mass = model.last_attn[0][:, m2[0] == 0].sum(-1).mean().item()
    return (a - b).abs().max().item(), pad_mass


def _check() -> str:
    mod = _target()
    model = _train(mod.make_target())
    diff, pad_mass = _padding_effect(mod, model)
    assert diff > 1e-2 and pad_mass > 0.05, (diff, pad_mass)
    t2 = mod.make_target()
    t2["model"].forward = _masked_forward.__get__(t2["model"])
    fixed = _train(t2)
    diff_ok, mass_ok = _padding_effect(mod, fixed)
    assert diff_ok < 1e-4 and mass_ok == 0.0, (diff_ok, mass_ok)
    return (f"4-token source alone vs batched with an 11-token one (7 PADs): max logit change {diff:.3f}, "
            f"{100 * pad_mass:.0f}% of attention on PAD; mask applied: change {diff_ok:.1e}, 0% on PAD")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
