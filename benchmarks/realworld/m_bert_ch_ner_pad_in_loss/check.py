"""The reported loss is mostly padding: it drops with more padding while the loss on real tokens is much higher."""

import importlib.util
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("m_bertner_target", HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    inputs, tags = t["batch"]
    for _ in range(40):
        opt.zero_grad()
        loss_fn(model(**inputs), tags).backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(**inputs)
        reported = loss_fn(logits, tags).item()
        real = tags != mod.PAD_TAG
        real_loss = torch.nn.functional.cross_entropy(logits[real], tags[real]).item()
        # same sentences, padded to 24 instead of 48
        short = {k: v[:, :24] for k, v in inputs.items()}
        reported_short = loss_fn(model(**short), tags[:, :24]).item()
    pad_share = 1 - real.float().mean().item()
    assert pad_share > 0.6, pad_share
    assert real_loss > 2.5 * reported, (real_loss, reported)
    assert reported_short > 1.5 * reported, (reported_short, reported)
    return (
        f"{pad_share:.0%} of positions are padding: reported loss {reported:.3f} vs {real_loss:.3f} on real tokens; "
        f"same sentences padded to 24 instead of 48 report {reported_short:.3f}"
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
