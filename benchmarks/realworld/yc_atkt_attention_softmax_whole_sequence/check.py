"""Shows that the prediction made at step t changes when only interactions after t are changed."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yc_atkt_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _prefix_only_attention(model, lstm_output):
    # healthy twin: normalise the attention weights over the positions seen so far only
    s = model.similarity(torch.tanh(model.mlp(lstm_output)))
    w = torch.exp(s)
    cum_w = torch.cumsum(w, dim=1)
    ctx = torch.cumsum(w * lstm_output, dim=1) - w * lstm_output
    ctx = ctx / cum_w.clamp_min(1e-6)
    return torch.cat((ctx, lstm_output), 2)


def _train(mod, t, twin):
    model = t["model"]
    if twin:
        model.attention_module = lambda out: _prefix_only_attention(model, out)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    inputs, targets = t["batch"]
    for _ in range(60):
        opt.zero_grad()
        t["loss_fn"](model(*inputs), targets).backward()
        opt.step()
    return model


def _future_effect(model, skill, answer, t_probe):
    answer2 = answer.clone()
    answer2[:, t_probe + 1:] = 1 - answer2[:, t_probe + 1:]
    with torch.no_grad():
        return (model(skill, answer)[:, : t_probe + 1] - model(skill, answer2)[:, : t_probe + 1]).abs().max().item()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    (skill, answer), _ = t["batch"]
    t_probe = 5
    answer2 = answer.clone()
    answer2[:, t_probe + 1:] = 1 - answer2[:, t_probe + 1:]     # flip only future answers
    skill2 = skill.clone()
    skill2[:, t_probe + 1:] = (skill2[:, t_probe + 1:] + 7) % mod.N_SKILLS
    with torch.no_grad():
        a = model(skill, answer)[:, : t_probe + 1]
        b = model(skill2, answer2)[:, : t_probe + 1]
        leak = (a - b).abs().max().item()
        orig = model.attention_module
        model.attention_module = lambda out: _prefix_only_attention(model, out)
        a2 = model(skill, answer)[:, : t_probe + 1]
        b2 = model(skill2, answer2)[:, : t_probe + 1]
        model.attention_module = orig
        twin = (a2 - b2).abs().max().item()
    trained = _future_effect(_train(mod, mod.make_target(), twin=False), skill, answer, t_probe)
    trained_twin = _future_effect(_train(mod, mod.make_target(), twin=True), skill, answer, t_probe)
    assert leak > 1e-4, leak
    assert twin < 1e-6, twin
    assert trained > 0.1, trained
    assert trained_twin < 1e-5, trained_twin
    return (f"changing only interactions after step {t_probe} moves predictions at steps <= {t_probe} by up to "
            f"{leak:.2e} at init and {trained:.2f} (probability) after 60 Adam steps; with prefix-normalised "
            f"attention the change is {twin:.1e} / {trained_twin:.1e}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
