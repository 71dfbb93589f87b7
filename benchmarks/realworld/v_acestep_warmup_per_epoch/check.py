"""Self-contained: a LoRA adapter trained with a step-counted linear warmup, the schedule stepped once per epoch
(what Lightning does for a bare [optimizer], [scheduler] return) versus once per optimizer step."""
import torch
import torch.nn.functional as F


def _run(per_step):
    torch.manual_seed(0)
    d, r = 32, 4
    base = torch.randn(d, d) / d**0.5                     # frozen base weight
    target = base + 0.5 * torch.randn(d, r) @ torch.randn(r, d) / d**0.5
    A = (torch.randn(r, d) / d**0.5).requires_grad_()
    B = torch.zeros(d, r, requires_grad=True)
    opt = torch.optim.AdamW([A, B], lr=1e-2, betas=(0.8, 0.9), weight_decay=0.0)
    warmup, max_steps, steps_per_epoch, epochs = 1000, 6000, 60, 10

    def lr_lambda(step):
        if step < warmup:
            return float(step + 1) / warmup
        return max(0.0, float(max_steps - step) / (max_steps - warmup))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda)
    g = torch.Generator().manual_seed(1)
    losses, lrs = [], []
    for epoch in range(epochs):
        for _ in range(steps_per_epoch):
            x = torch.randn(64, d, generator=g)
            loss = F.mse_loss(x @ (base + B @ A).T, x @ target.T)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(loss.item())
            if per_step:
                sched.step()
        lrs.append(opt.param_groups[0]["lr"])
        if not per_step:
            sched.step()
    return losses, lrs


def _check() -> str:
    bad_l, bad_lr = _run(per_step=False)
    ok_l, ok_lr = _run(per_step=True)
    start = bad_l[0]
    bad_end = sum(bad_l[-30:]) / 30
    ok_end = sum(ok_l[-30:]) / 30
    assert max(bad_lr) < 0.011 * 1e-2, bad_lr
    assert bad_end > 0.5 * start and ok_end < 0.05 * start, (start, bad_end, ok_end)
    return (f"warmup stepped per epoch: lr {bad_lr[0]:.1e} -> {bad_lr[-1]:.1e} after 10 epochs, loss {start:.4f} -> "
            f"{bad_end:.4f}; stepped per step: loss -> {ok_end:.5f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
