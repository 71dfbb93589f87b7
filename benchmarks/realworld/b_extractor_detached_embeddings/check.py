import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_b_extractor_detached_embeddings_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    model, (inputs, labels), loss_fn = t["model"], t["batch"], t["loss_fn"]
    loss_fn(model(*inputs), labels).backward()
    enc = model.image.encoder
    no_grad = [n for n, p in enc.named_parameters() if p.grad is None]
    text_ok = model.tok.weight.grad is not None
    assert len(no_grad) == len(list(enc.parameters())) and text_ok
    return f"after backward all {len(no_grad)} image-encoder tensors have grad None while the text side has gradients"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
