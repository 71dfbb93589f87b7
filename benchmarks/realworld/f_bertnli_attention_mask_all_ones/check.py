import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_bertnli_attention_mask_all_ones_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _real_masks(batches):
    fixed = []
    for inputs, y in batches:
        inputs = dict(inputs, attention_mask=(inputs["input_ids"] != 0).long())
        fixed.append((inputs, y))
    return fixed


def _run(mask_padding):
    mod = _load()
    t = mod.make_target()
    torch.manual_seed(0)
    model = mod.TinyEncoderClassifier()
    opt = t["optimizer"](model.parameters())
    train, val = t["train_data"], t["val_data"]
    if mask_padding:
        train, val = _real_masks(train), _real_masks(val)
    for _ in range(5):
        for inputs, y in train:
            loss = t["loss_fn"](model(**inputs), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    with torch.no_grad():
        return sum(t["metric_fn"](model(**inputs), y) for inputs, y in val) / len(val)


def _check() -> str:
    t = _load().make_target()
    inputs, _ = t["batch"]
    assert bool((inputs["attention_mask"] == 1).all()) and bool((inputs["input_ids"] == 0).any())
    acc_bug = _run(mask_padding=False)
    acc_ok = _run(mask_padding=True)
    assert acc_bug < 0.7 and acc_ok > 0.8 and acc_ok - acc_bug > 0.15, (acc_bug, acc_ok)
    return f"masks all ones although rows are padded: val accuracy {acc_bug:.3f}; pads masked out: {acc_ok:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
