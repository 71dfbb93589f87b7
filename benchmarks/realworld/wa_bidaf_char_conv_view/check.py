import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wa_bidaf_char_conv_view_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _conv_input(model, chars, words):
    seen = {}

    def hook(module, inp, out):
        seen["x"] = inp[0].detach().clone()

    h = model.char_conv.register_forward_hook(hook)
    with torch.no_grad():
        model(chars, words)
    h.remove()
    return seen["x"]  # (batch*seq_len, 1, char_dim, word_len)


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    (chars, words), _ = t["batch"]
    base = _conv_input(model, chars, words)
    # change only the FIRST character of the first word
    chars2 = chars.clone()
    chars2[0, 0, 0] = (chars2[0, 0, 0] + 1 - 2) % (mod.CHAR_VOCAB - 2) + 2
    moved = _conv_input(model, chars2, words)
    diff = (base[0, 0] - moved[0, 0]).abs().sum(0)          # per conv "character position" column
    cols_changed = int((diff > 0).sum())
    # what column 0 of the conv input should hold: the embedding of character 0
    emb0 = model.char_emb(chars[0, 0, 0]).detach()
    col0_is_char0 = torch.allclose(base[0, 0, :, 0], emb0)
    other_words_touched = int(((base[1:] - moved[1:]).abs().sum() > 0))
    assert cols_changed > 1 and not col0_is_char0, (cols_changed, col0_is_char0)
    assert other_words_touched == 0
    return (f"editing one character moves {cols_changed} of {base.shape[-1]} conv positions (expected 1); "
            f"conv column 0 holds char 0's embedding: {col0_is_char0}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
