import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xa_charrnn_bidirectional_lm_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, model, steps=150):
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    it = mod.batches(mod.make_text(), seed=1)
    for _ in range(steps):
        x, y = next(it)
        opt.zero_grad()
        loss = mod.char_loss(model(x), y)
        loss.backward()
        opt.step()
    x, y = next(mod.batches(mod.make_text(seed=7), seed=3))   # fresh random text
    with torch.no_grad():
        return mod.char_loss(model(x), y).item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"]
    x, _ = t["batch"]
    pos = 10
    x2 = x.clone()
    x2[:, pos + 1] = (x2[:, pos + 1] + 1) % mod.VOCAB          # change only the NEXT character
    with torch.no_grad():
        delta = (model(x)[:, pos] - model(x2)[:, pos]).abs().max().item()
    torch.manual_seed(0)
    held_out = _train(mod, mod.CharRNN())
    chance = torch.log(torch.tensor(float(mod.VOCAB))).item()
    assert delta > 1e-4, delta
    assert held_out < 0.7 * chance, (held_out, chance)
    return (f"logits at t move by {delta:.3g} when only char t+1 changes; on fresh random text (entropy "
            f"{chance:.2f} nats) the trained model scores {held_out:.2f} nats/char")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
