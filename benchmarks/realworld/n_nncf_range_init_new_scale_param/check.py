"""Self-contained: quantization-aware training of a small regressor whose activation quantizer has a learnable scale.
The optimizer receives the model's parameters first; range initialisation (min/max over a calibration batch) runs
afterwards, as in the compression controller, and assigns the scale a new nn.Parameter."""

import torch
import torch.nn as nn


class SymmetricQuantizer(nn.Module):
    def __init__(self, bits=4):
        super().__init__()
        self.levels = 2 ** (bits - 1) - 1
        self.scale = nn.Parameter(torch.ones(1))

    def forward(self, x):
        s = self.scale.abs() + 1e-8
        q = torch.clamp(x / s, -1, 1)
        q = q + (torch.round(q * self.levels) / self.levels - q).detach()
        return q * s

    @torch.no_grad()
    def apply_minmax_init(self, min_values, max_values):
        abs_max = torch.max(min_values.abs(), max_values.abs()).max()
        self.scale = nn.Parameter(abs_max.reshape(1).clone())


class QNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 32)
        self.act_q = SymmetricQuantizer()
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        return self.fc2(self.act_q(torch.relu(self.fc1(x))))


def _check() -> str:
    torch.manual_seed(0)
    model = QNet()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(256, 8, generator=g)
    y = torch.sin(x[:, :1] * 2) + x[:, 1:2] ** 2
    with torch.no_grad():  # range init on a calibration batch, after the optimizer was built
        h = torch.relu(model.fc1(x[:64]))
        model.act_q.apply_minmax_init(h.min(), h.max())
    init_scale = model.act_q.scale.item()
    in_opt = any(p is model.act_q.scale for grp in opt.param_groups for p in grp["params"])
    for step in range(200):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    scale_grad = model.act_q.scale.grad.abs().item()
    assert not in_opt and model.act_q.scale.item() == init_scale and scale_grad > 0, (in_opt, init_scale, scale_grad)
    assert model.fc1.weight.grad is not None
    return (
        f"after 200 Adam steps the quantizer scale is still exactly {init_scale:.4f} although its grad is {scale_grad:.2e}; "
        f"the scale parameter is not among the optimizer's params (final loss {loss.item():.3f})"
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
