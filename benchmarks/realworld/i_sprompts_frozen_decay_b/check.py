import torch
import torch.nn as nn
import torch.nn.functional as F


class PromptNet(nn.Module):
    """Frozen backbone, one learnable prompt and one classifier per task."""

    def __init__(self, dim=16, n_tasks=2, n_cls=2):
        super().__init__()
        self.backbone = nn.Linear(dim, dim)
        self.prompt_pool = nn.ParameterList([nn.Parameter(torch.randn(dim) * 0.5 + 1.0) for _ in range(n_tasks)])
        self.classifier_pool = nn.ModuleList([nn.Linear(dim, n_cls) for _ in range(n_tasks)])
        self.task = 0

    def forward(self, x):
        h = torch.tanh(self.backbone(x + self.prompt_pool[self.task]))
        return self.classifier_pool[self.task](h)


def _data(seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(256, 16, generator=g)
    return x, (x[:, seed % 16] > 0).long()


def _learn_task(net, task, only_trainable):
    net.task = task
    for name, p in net.named_parameters():
        p.requires_grad_(f"prompt_pool.{task}" in name or f"classifier_pool.{task}" in name)
    params = [p for p in net.parameters() if p.requires_grad] if only_trainable else net.parameters()
    opt = torch.optim.SGD(params, lr=0.05, momentum=0.9, weight_decay=5e-3)
    x, y = _data(task + 1)
    for _ in range(15):
        for i in range(0, 256, 16):
            opt.zero_grad(set_to_none=False)  # the PyTorch 1.x default the report was written against
            F.cross_entropy(net(x[i : i + 16]), y[i : i + 16]).backward()
            opt.step()


def _run(only_trainable):
    torch.manual_seed(0)
    net = PromptNet()
    for p in net.backbone.parameters():
        p.requires_grad_(False)
    _learn_task(net, 0, only_trainable)
    before = net.prompt_pool[0].detach().mean().item()
    _learn_task(net, 1, only_trainable)
    return before, net.prompt_pool[0].detach().mean().item()


def _check() -> str:
    b_bad, a_bad = _run(False)
    b_ok, a_ok = _run(True)
    assert a_bad < 0.7 * b_bad and abs(a_ok - b_ok) < 1e-6, (b_bad, a_bad, b_ok, a_ok)
    return (
        f"mean of the frozen task-0 prompt falls from {b_bad:.3f} to {a_bad:.3f} while task 1 trains "
        f"(optimizer given only trainable parameters: {b_ok:.3f} -> {a_ok:.3f})"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
