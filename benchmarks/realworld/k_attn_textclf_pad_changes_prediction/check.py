import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_attn_textclf_pad_changes_prediction_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _masked_forward(model, ids, pad_id):
    h, _ = model.rnn(model.emb(ids))
    scores = model.v(torch.tanh(model.att(h))).squeeze(-1).masked_fill(ids == pad_id, float("-inf"))
    ctx = (F.softmax(scores, dim=1).unsqueeze(-1) * h).sum(1)
    return model.out(ctx)


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, opt = t["model"], t["optimizer"](t["model"].parameters())
    for epoch in range(3):
        for x, y in t["train_data"]:
            loss = t["loss_fn"](model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    seqs, _ = mod.make_sentences(64, 5)
    short = [s for s in seqs if len(s) <= 6][:8]
    long_one = torch.randint(2, mod.VOCAB, (60,), generator=torch.Generator().manual_seed(9))
    max_diff, flips, masked_diff = 0.0, 0, 0.0
    with torch.no_grad():
        for s in short:
            alone = F.softmax(model(s.unsqueeze(0)), -1)[0]
            batched = F.softmax(model(mod.pad_batch([s, long_one])), -1)[0]
            max_diff = max(max_diff, (alone - batched).abs().max().item())
            flips += int(alone.argmax() != batched.argmax())
            m_alone = _masked_forward(model, s.unsqueeze(0), mod.PAD_ID)[0]
            m_batched = _masked_forward(model, mod.pad_batch([s, long_one]), mod.PAD_ID)[0]
            masked_diff = max(masked_diff, (m_alone - m_batched).abs().max().item())
    assert max_diff > 0.05, max_diff
    assert masked_diff < 1e-4, masked_diff
    return (
        f"{len(short)} short sentences: class probabilities change by up to {max_diff:.3f} "
        f"({flips} predictions flip) when padded next to a 60-token sentence; with pad positions masked "
        f"out of the attention the change is {masked_diff:.1e}"
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
