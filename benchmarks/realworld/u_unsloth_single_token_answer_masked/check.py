import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("rw_u_unsloth_single_token_answer_masked_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    t = _load().make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    ids, labels = t["batch"]
    opt = t["optimizer"](model.parameters())
    before = [p.detach().clone() for p in model.parameters()]
    losses, gnorm = [], 0.0
    for _ in range(5):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        gnorm += sum(float(p.grad.norm()) for p in model.parameters() if p.grad is not None)
        opt.step()
        losses.append(loss.item())
    moved = max(float((p.detach() - b).abs().max()) for p, b in zip(model.parameters(), before))
    kept = int((labels != -100).sum())
    assert kept == 0 and max(losses) == 0.0 and gnorm == 0.0 and moved == 0.0, (kept, losses, gnorm, moved)
    return f"labels kept after response masking: {kept}/{labels.numel()}; loss {losses} with grad norm {gnorm} and no weight change"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
