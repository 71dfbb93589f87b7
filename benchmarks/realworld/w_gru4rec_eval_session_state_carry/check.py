import importlib.util
import os

import torch
import torch.nn as nn


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_w_gru4rec_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, model, sess):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    model.train()
    for _ in range(20):
        for s in sess:
            model.reset(1)
            for a, b in zip(s[:-1], s[1:]):
                opt.zero_grad()
                nn.functional.cross_entropy(model(torch.tensor([a])), torch.tensor([b])).backward()
                opt.step()


def _check() -> str:
    mod = _load()
    torch.manual_seed(0)
    model = mod.GRU4Rec()
    _train(mod, model, mod.sessions(24, seed=1))
    test = mod.sessions(48, seed=2)
    r_small = mod.session_parallel_eval(model, test, batch_size=2)
    r_big = mod.session_parallel_eval(model, test, batch_size=16)
    # same first step of a session: alone vs after another session in the same lane
    model.eval()
    with torch.no_grad():
        model.reset(1)
        alone = model(torch.tensor([test[0][0]]))
        model.reset(1)
        for it in test[1]:
            model(torch.tensor([it]))
        carried = model(torch.tensor([test[0][0]]))
    diff = (alone - carried).abs().max().item()
    assert diff > 1e-3 and abs(r_small - r_big) > 0.01, (diff, r_small, r_big)
    return (f"recall@5 {r_small:.3f} with 2 lanes vs {r_big:.3f} with 16 lanes on the same model; first-step logits of "
            f"a session differ by {diff:.3f} depending on the session that ran before it in the lane")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
