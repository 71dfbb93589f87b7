import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ta_cotrec_conv_weights_plain_dict_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["batch"]
    convs = list(model.item_conv.w_item.values())
    before = [c.weight.detach().clone() for c in convs]
    emb_before = model.embedding.weight.detach().clone()
    for _ in range(5):
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
    conv_move = max((c.weight - b).abs().max().item() for c, b in zip(convs, before))
    conv_grad = min(c.weight.grad.abs().sum().item() for c in convs)
    emb_move = (model.embedding.weight - emb_before).abs().max().item()
    n_reg = sum(p.numel() for p in model.parameters())
    assert conv_grad > 0 and conv_move == 0.0 and emb_move > 1e-4, (conv_grad, conv_move, emb_move)
    return (f"after 5 Adam steps the item-conv weights moved {conv_move:.1e} although their gradients are non-zero "
            f"(|g|={conv_grad:.2e}); the embedding moved {emb_move:.1e}; model.parameters() holds {n_reg} values")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
