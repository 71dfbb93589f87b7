"""Learn the target's merge coefficients with the all-positions KL vs a KL masked to real tokens."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("w_dam_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _masked_kl(student, teacher, mask):
    kl = F.kl_div(F.log_softmax(student, -1), F.log_softmax(teacher, -1), log_target=True, reduction="none").sum(-1)
    return (kl * mask).sum() / mask.sum()


def _train(masked):
    tg = _t.make_target()
    model = tg["model"]
    opt = tg["optimizer"](model.parameters())
    g = torch.Generator().manual_seed(3)
    logged = []
    for _ in range(150):
        ids, mask = _t.make_batch(g)
        teacher = _t.teacher_logits(ids, mask, model.experts)
        out = model(ids, mask)
        loss = _masked_kl(out, teacher, mask.float()) if masked else tg["loss_fn"](out, teacher)
        opt.zero_grad()
        loss.backward()
        opt.step()
        logged.append(loss.item())
    ids, mask = _t.make_batch(torch.Generator().manual_seed(99))
    with torch.no_grad():
        out = model(ids, mask)
        teacher = _t.teacher_logits(ids, mask, model.experts)
        real_kl = _masked_kl(out, teacher, mask.float()).item()
    return logged, real_kl, model.coef.detach().tolist(), float(mask.float().mean())


def _check() -> str:
    logged, real_kl, coef, frac_real = _train(False)
    _, real_ok, coef_ok, _ = _train(True)
    assert frac_real < 0.35, frac_real
    assert logged[-1] < 0.6 * logged[0], (logged[0], logged[-1])
    assert real_kl > 5 * real_ok and real_kl > 0.5, (real_kl, real_ok)
    assert coef[1] > coef[0] and coef_ok[0] > coef_ok[1], (coef, coef_ok)
    return (f"KL over all positions ({frac_real:.0%} real): logged {logged[0]:.2f} -> {logged[-1]:.2f}, KL on real tokens "
            f"{real_kl:.2f}, coefficients {coef[0]:.2f}/{coef[1]:.2f}; masked KL: real-token KL {real_ok:.3f}, "
            f"coefficients {coef_ok[0]:.2f}/{coef_ok[1]:.2f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
