import importlib.util
import math
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("yb_tinyllm_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, model, shift_in_dataset, steps=90):
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for step in range(steps):
        seqs = mod.make_corpus(32, seed=100 + step)          # fresh streams every step: no memorising
        if shift_in_dataset:
            X, Y = mod._collate(mod.PTMDataset(seqs))
        else:
            X, Y = seqs[:, :-1], seqs[:, :-1].clone()
        opt.zero_grad()
        loss = model(input_ids=X, labels=Y)["loss"]
        loss.backward()
        opt.step()
    return loss.item()


def _next_token_ce(model, seqs):
    with torch.no_grad():
        logits = model(input_ids=seqs[:, :-1])["logits"]
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), seqs[:, 1:].reshape(-1)).item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    inputs, _ = t["batch"]
    X, Y = inputs["input_ids"], inputs["labels"]
    # after the in-model shift, the label paired with input position t is X[t + 2]
    assert torch.equal(Y[:, 1:][:, :-1], X[:, 2:])
    train_loss = _train(mod, t["model"], True)
    held = mod.make_corpus(32, seed=1)
    ce = _next_token_ce(t["model"], held)

    # healthy twin: labels are an unshifted copy of the inputs
    torch.manual_seed(0)
    twin = mod.TinyLLM()
    tw_loss = _train(mod, twin, False)
    tw_ce = _next_token_ce(twin, held)
    assert train_loss > 1.15, train_loss          # stuck near ln 4 (two random steps ahead)
    assert tw_loss < 0.85, tw_loss                # near ln 2 (one random step)
    assert ce > 2.0 and tw_ce < 0.85, (ce, tw_ce)
    return (f"double-shifted labels: train loss {train_loss:.3f} (ln4={math.log(4):.3f}), held-out next-token CE "
            f"{ce:.2f}; unshifted labels: train loss {tw_loss:.3f} (ln2={math.log(2):.3f}), next-token CE {tw_ce:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
