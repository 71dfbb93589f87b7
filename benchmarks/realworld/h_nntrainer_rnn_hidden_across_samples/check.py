import torch
import torch.nn as nn
import torch.nn.functional as F


class _RNN(nn.Module):
    def __init__(self, carry, n_in=4, hidden=16):
        super().__init__()
        self.carry, self.hidden_size = carry, hidden
        self.w_ih = nn.Linear(n_in, hidden)
        self.w_hh = nn.Linear(hidden, hidden, bias=False)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x):
        outs, h = [], x.new_zeros(self.hidden_size)
        for b in range(x.shape[0]):
            if not self.carry:
                h = x.new_zeros(self.hidden_size)
            for t in range(x.shape[1]):
                h = torch.tanh(self.w_ih(x[b, t]) + self.w_hh(h))
            outs.append(self.head(h))
        return torch.stack(outs).squeeze(-1)


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(16, 3, 4, generator=g)
    y = x[:, :, 0].sum(1)
    bug = _RNN(carry=True)
    nn.init.orthogonal_(bug.w_hh.weight)  # a recurrent matrix that keeps its memory
    ok = _RNN(carry=False)
    ok.load_state_dict(bug.state_dict())
    with torch.no_grad():
        seq = x[5:6]
        at0 = bug(torch.cat([seq, x[:3]]))[0].item()
        at3 = bug(torch.cat([x[:3], seq]))[3].item()
        batched = F.mse_loss(bug(x), y).item()
        single = F.mse_loss(torch.cat([bug(x[i : i + 1]) for i in range(16)]), y).item()
        ok_b = F.mse_loss(ok(x), y).item()
        ok_s = F.mse_loss(torch.cat([ok(x[i : i + 1]) for i in range(16)]), y).item()
    assert abs(at0 - at3) > 1e-2 and abs(batched - single) > 1e-2 and abs(ok_b - ok_s) < 1e-6, (
        at0,
        at3,
        batched,
        single,
    )
    return f"same sequence: output {at0:.3f} at batch position 0 vs {at3:.3f} at position 3; val loss batched {batched:.3f} vs one-by-one {single:.3f}"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
