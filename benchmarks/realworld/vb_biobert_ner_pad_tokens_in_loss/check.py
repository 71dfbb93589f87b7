"""Shows that the loss on the same sentences changes with max_seq_length (padding is scored), while a masked loss does not."""
import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("vb_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _masked(mod, out, labels, mask):
    log_probs = torch.log_softmax(out.logits, -1)
    nll = -log_probs.gather(-1, labels.unsqueeze(-1)).squeeze(-1)
    return (nll * mask).sum() / mask.sum()


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, (inputs, labels) = t["model"], t["batch"]
    opt = t["optimizer"](model.parameters())
    model.train()
    for _ in range(15):
        opt.zero_grad()
        loss = t["loss_fn"](model(**inputs), labels)
        loss.backward()
        opt.step()
    model.eval()
    res = {}
    with torch.no_grad():
        for L in (32, 128):
            inp, lab = mod.convert_examples(max_seq_length=L)
            out = model(**inp)
            res[L] = (t["loss_fn"](out, lab).item(), _masked(mod, out, lab, inp["attention_mask"].float()).item(),
                      inp["attention_mask"].float().mean().item())
    (s_all, s_real, s_frac), (l_all, l_real, l_frac) = res[32], res[128]
    assert s_all > 1.5 * l_all, res
    assert abs(s_real - l_real) < 0.02 * s_real, res
    return (f"same 16 sentences: training loss {s_all:.3f} at max_seq_length 32 ({s_frac:.0%} real tokens) vs "
            f"{l_all:.3f} at 128 ({l_frac:.0%} real); loss over real tokens only {s_real:.3f} vs {l_real:.3f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(0)
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
