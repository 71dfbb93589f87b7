"""The cross-attention weights are saturated (near one-hot) and their softmax lets little gradient through to the
query/key projections; applying the scale the block already computes fixes both."""

import importlib.util
from pathlib import Path

import torch


def _target():
    p = Path(__file__).with_name("target.py")
    spec = importlib.util.spec_from_file_location("m_monai_xattn_target", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _scaled_forward(self, x, context):
    b, n, _ = x.shape
    h = self.heads
    q = self.to_q(x).view(b, n, h, -1).transpose(1, 2)
    k = self.to_k(context).view(b, context.shape[1], h, -1).transpose(1, 2)
    v = self.to_v(context).view(b, context.shape[1], h, -1).transpose(1, 2)
    attn = (q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1)
    self.last_attn = attn.detach()
    return self.to_out((attn @ v).transpose(1, 2).reshape(b, n, -1))


def _probe(mod, scaled):
    t = mod.make_target()
    model, (inputs, noise) = t["model"], t["batch"]
    if scaled:
        model.xattn.forward = _scaled_forward.__get__(model.xattn)
    loss = t["loss_fn"](model(*inputs), noise)
    loss.backward()
    attn = model.xattn.last_attn
    peak = attn.max(-1).values.mean().item()
    ent = -(attn.clamp_min(1e-12).log() * attn).sum(-1).mean().item()
    jac = (attn * (1 - attn)).sum(-1).mean().item()  # trace of the softmax Jacobian, the gradient it lets through
    sat = (attn.max(-1).values > 0.99).float().mean().item()
    return peak, ent, jac, sat


def _check() -> str:
    mod = _target()
    p_bad, e_bad, g_bad, s_bad = _probe(mod, scaled=False)
    p_ok, e_ok, g_ok, s_ok = _probe(mod, scaled=True)
    assert p_bad > 0.8 and e_bad < 0.5, (p_bad, e_bad)
    assert p_ok < 0.6 and e_ok > 1.0, (p_ok, e_ok)
    assert g_ok > 2 * g_bad, (g_bad, g_ok)
    return (f"unscaled q.k (dim_head 128): mean max attention weight {p_bad:.2f}, entropy {e_bad:.2f} nats "
            f"(uniform = {torch.tensor(8.0).log().item():.2f}), {100 * s_bad:.0f}% rows with a weight > 0.99, "
            f"softmax Jacobian trace {g_bad:.3f}; with * scale: {p_ok:.2f}, {e_ok:.2f} nats, {100 * s_ok:.0f}%, {g_ok:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
