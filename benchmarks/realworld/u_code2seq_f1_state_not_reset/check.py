"""Self-contained: a token-level F1 accumulator updated every validation epoch and never reset,
vs. the same accumulator reset at each epoch end, while the predictions improve epoch by epoch."""
import torch


class F1:
    def __init__(self):
        self.reset()

    def reset(self):
        self.tp = self.fp = self.fn = 0

    def update(self, pred, target):
        self.tp += int(((pred == 1) & (target == 1)).sum())
        self.fp += int(((pred == 1) & (target == 0)).sum())
        self.fn += int(((pred == 0) & (target == 1)).sum())

    def compute(self):
        p = self.tp / max(self.tp + self.fp, 1)
        r = self.tp / max(self.tp + self.fn, 1)
        return 2 * p * r / max(p + r, 1e-9)


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    target = (torch.rand(50, 40, generator=g) < 0.3).long()
    stale, fresh = F1(), F1()
    stale_log, fresh_log = [], []
    for epoch in range(10):
        keep = 0.2 + 0.07 * epoch          # the model gets a larger share of the tokens right each epoch
        noise = (torch.rand(target.shape, generator=g) > keep).long()
        pred = torch.where(noise.bool(), (torch.rand(target.shape, generator=g) < 0.3).long(), target)
        for b in range(0, 50, 10):
            stale.update(pred[b:b + 10], target[b:b + 10])
            fresh.update(pred[b:b + 10], target[b:b + 10])
        stale_log.append(stale.compute())
        fresh_log.append(fresh.compute())
        fresh.reset()                       # stale is never reset
    gap = fresh_log[-1] - stale_log[-1]
    assert gap > 0.08 and abs(stale_log[0] - fresh_log[0]) < 1e-9, (stale_log, fresh_log)
    return (f"epoch-10 F1 logged without reset {stale_log[-1]:.3f} vs per-epoch F1 {fresh_log[-1]:.3f} "
            f"(epoch 1: both {fresh_log[0]:.3f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
