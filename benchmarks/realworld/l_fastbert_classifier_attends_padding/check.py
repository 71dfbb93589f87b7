import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_l_fastbert_classifier_attends_padding_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    g = torch.Generator().manual_seed(9)
    ids = torch.randint(1, mod.VOCAB, (1, 6), generator=g)
    alone = {"ids": ids, "mask": torch.ones_like(ids)}
    padded_ids = torch.cat([ids, torch.zeros(1, 14, dtype=torch.long)], 1)
    padded = {"ids": padded_ids, "mask": (padded_ids != mod.PAD).long()}
    with torch.no_grad():
        la, lp = model(**alone), model(**padded)
        pos = torch.arange(6)[None]
        ha = model.enc(model.emb(ids) + model.pos(pos))
        pos_p = torch.arange(20)[None]
        hp = model.enc(model.emb(padded_ids) + model.pos(pos_p), src_key_padding_mask=padded["mask"] == 0)[:, :6]
        # the same head, told to ignore the padded keys
        hfull = torch.tanh(model.cls.reduce(model.enc(model.emb(padded_ids) + model.pos(pos_p),
                                                       src_key_padding_mask=padded["mask"] == 0)))
        a_masked, _ = model.cls.attn(hfull, hfull, hfull, key_padding_mask=padded["mask"] == 0)
        lm = model.cls.out(a_masked[:, 0])
    enc_diff = (ha - hp).abs().max().item()
    diff = (la - lp).abs().max().item()
    diff_masked = (la - lm).abs().max().item()
    assert enc_diff < 1e-4, enc_diff
    assert diff > 1e-2, diff
    assert diff_masked < 1e-4, diff_masked
    return (
        f"same 6-token sentence alone vs padded to 20: encoder states differ by {enc_diff:.1e}, classifier logits by "
        f"{diff:.3f} (argmax {int(la.argmax())} vs {int(lp.argmax())}); with the padding mask "
        f"in the head: {diff_masked:.1e}"
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
