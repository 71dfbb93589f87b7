import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_n_warpctc_grad_output_ignored_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    feats, (sym, spk) = t["batch"]
    torch.manual_seed(0)
    acts = torch.randn(feats.shape[0], mod.T, mod.N_SYM, requires_grad=True)

    def grad_of(loss):
        (g,) = torch.autograd.grad(loss, acts)
        return g

    custom = grad_of(mod.SEQ_WEIGHT * mod.SeqLoss.apply(acts, sym) / acts.shape[0])
    reference = grad_of(mod.SEQ_WEIGHT * -torch.log_softmax(acts, -1).gather(-1, sym.unsqueeze(-1)).sum() / acts.shape[0])
    zero_weighted = grad_of(0.0 * mod.SeqLoss.apply(acts, sym))
    ratio = (custom.norm() / reference.norm()).item()
    expected = acts.shape[0] / mod.SEQ_WEIGHT
    assert abs(ratio - expected) / expected < 1e-4, (ratio, expected)
    assert zero_weighted.abs().max() > 0.1, zero_weighted.abs().max()
    ok = torch.autograd.gradcheck(lambda a: mod.SeqLoss.apply(a, sym[:2, :3]) * 2.0,
                                  (torch.randn(2, 3, mod.N_SYM, dtype=torch.double, requires_grad=True),),
                                  raise_exception=False)
    assert not ok
    return (
        f"gradient of 0.1 * seq_loss / batch is {ratio:.0f}x the true one (= batch {acts.shape[0]} / weight 0.1); "
        f"0 * seq_loss still gives |grad| up to {zero_weighted.abs().max():.2f}; gradcheck fails"
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
