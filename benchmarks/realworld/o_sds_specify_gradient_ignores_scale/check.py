"""Self-contained: a backward that ignores grad_output makes the injected gradient immune to loss weights and to loss scaling."""

import torch


class SpecifyGradientBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, gt_grad):
        ctx.save_for_backward(gt_grad)
        return torch.ones([1], dtype=x.dtype)

    @staticmethod
    def backward(ctx, grad):
        (gt_grad,) = ctx.saved_tensors
        return gt_grad, None


class SpecifyGradientOk(SpecifyGradientBad):
    @staticmethod
    def backward(ctx, grad):
        (gt_grad,) = ctx.saved_tensors
        return gt_grad * grad, None


def _grads(fn, sds_weight, scale):
    torch.manual_seed(0)
    latents = torch.randn(1, 4, 8, 8, requires_grad=True)
    sds_grad = torch.randn(1, 4, 8, 8) * 0.1  # what the diffusion model asks for
    reg = (latents ** 2).mean()  # another loss term on the same tensor
    total = sds_weight * fn.apply(latents, sds_grad).sum() + reg
    (total * scale).backward()  # GradScaler-style loss scaling
    g = latents.grad / scale  # ... and unscaling before the optimizer step
    sds_part = g - torch.autograd.grad((latents ** 2).mean(), latents)[0]
    return sds_part.norm().item(), sds_grad.norm().item() * sds_weight


def _check() -> str:
    S = 65536.0
    bad, want = _grads(SpecifyGradientBad, 1.0, S)
    bad_w10, want_w10 = _grads(SpecifyGradientBad, 10.0, 1.0)
    bad_w1, _ = _grads(SpecifyGradientBad, 1.0, 1.0)
    ok, _ = _grads(SpecifyGradientOk, 1.0, S)
    ok_w10, _ = _grads(SpecifyGradientOk, 10.0, 1.0)
    assert bad < want / 1000 and abs(ok - want) < 1e-3 * want, (bad, want, ok)
    assert abs(bad_w10 - bad_w1) < 1e-6 and abs(ok_w10 - want_w10) < 1e-3 * want_w10, (bad_w1, bad_w10, ok_w10)
    return (f"with loss scale {S:g}: injected SDS gradient norm after unscaling {bad:.2e} instead of {want:.3f}; "
            f"SDS weight 10 vs 1 gives the same gradient ({bad_w10:.3f} vs {bad_w1:.3f}); "
            f"backward multiplying by grad_output gives {ok:.3f} and {ok_w10:.3f}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
