"""Shows that the speaker loss gradient reaching the text encoder is not reversed: it is identical to having no
reversal layer at all (the module's backward method is never called)."""
import copy
import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F


def _load():
    spec = importlib.util.spec_from_file_location("yc_pitchtron_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _Reverse(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.view_as(x)

    @staticmethod
    def backward(ctx, grad_output):
        return -grad_output


def _encoder_grad(mod, model, inputs, speaker, grl):
    model = copy.deepcopy(model)
    old = mod.gradient_reversal_layer
    mod.gradient_reversal_layer = grl
    try:
        _, logits = model(*inputs)
        F.cross_entropy(logits, speaker).backward()
    finally:
        mod.gradient_reversal_layer = old
    return model.embedding.weight.grad.clone()


def _backward_calls(mod, t):
    calls = []
    orig = mod.GradientReversalLayer.backward

    def spy(self, grad_output):
        calls.append(1)
        return orig(self, grad_output)

    mod.GradientReversalLayer.backward = spy
    try:
        model = copy.deepcopy(t["model"])
        inputs, targets = t["batch"]
        t["loss_fn"](model(*inputs), targets).backward()
    finally:
        mod.GradientReversalLayer.backward = orig
    return len(calls)


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    inputs, (mel, speaker) = t["batch"]
    g_layer = _encoder_grad(mod, t["model"], inputs, speaker, mod.gradient_reversal_layer)
    g_none = _encoder_grad(mod, t["model"], inputs, speaker, lambda x: x)
    g_rev = _encoder_grad(mod, t["model"], inputs, speaker, _Reverse.apply)
    same = (g_layer - g_none).abs().max().item()
    cos = F.cosine_similarity(g_layer.flatten(), g_rev.flatten(), dim=0).item()
    n_calls = _backward_calls(mod, t)
    assert same < 1e-9, same
    assert cos < -0.99, cos
    assert n_calls == 0, n_calls
    return (f"speaker-loss gradient at the text embedding equals the gradient with no reversal layer (max diff "
            f"{same:.1e}, |g| {g_none.abs().max().item():.2e}); cosine with a true reversal {cos:.2f}; "
            f"GradientReversalLayer.backward called {n_calls} times in a full loss.backward()")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
