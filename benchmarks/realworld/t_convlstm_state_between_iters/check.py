"""Self-contained: a tiny conv-GRU predictor whose state is carried from one batch of clips to the next."""

import torch
from torch import nn
import torch.nn.functional as F


class ConvGRU(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.ch = ch
        self.gates = nn.Conv2d(1 + ch, 2 * ch, 3, padding=1)
        self.cand = nn.Conv2d(1 + ch, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 1, 1)

    def forward(self, x, hidden):
        if hidden is None:
            hidden = (torch.zeros(x.shape[0], self.ch, *x.shape[-2:]),)
        h = hidden[0]
        z, r = torch.sigmoid(self.gates(torch.cat([x, h], 1))).chunk(2, 1)
        c = torch.tanh(self.cand(torch.cat([x, r * h], 1)))
        h = (1 - z) * h + z * c
        return torch.sigmoid(self.out(h)), (h,)


def _clips(n, seed, T=6, S=12):
    g = torch.Generator().manual_seed(seed)
    clips = torch.zeros(n, T, 1, S, S)
    pos = torch.randint(2, S - 3, (n, 2), generator=g)
    vel = torch.randint(-1, 2, (n, 2), generator=g)
    for t in range(T):
        p = (pos + t * vel).clamp(0, S - 2)
        for i in range(n):
            clips[i, t, 0, p[i, 0]:p[i, 0] + 2, p[i, 1]:p[i, 1] + 2] = 1.0
    return clips


def _first_frame_mse(model, clip, hidden):
    with torch.no_grad():
        pred, _ = model(clip[:, 0], hidden)
        return F.mse_loss(pred, clip[:, 1]).item()


def _check() -> str:
    torch.manual_seed(0)
    model = ConvGRU()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    hidden = None
    for step in range(40):  # the edited loop: state carried across batches
        clips = _clips(8, step)
        loss = 0.0
        for t in range(clips.shape[1] - 1):
            pred, hidden = model(clips[:, t], hidden)
            loss = loss + F.mse_loss(pred, clips[:, t + 1])
        opt.zero_grad()
        loss.backward()
        opt.step()
        hidden = tuple(h.detach() for h in hidden)
    test = _clips(8, 999)
    fresh = _first_frame_mse(model, test, None)
    carried = _first_frame_mse(model, test, hidden)
    other = _clips(8, 123)
    with torch.no_grad():
        h2 = None
        for t in range(other.shape[1] - 1):
            _, h2 = model(other[:, t], h2)
    after_other = _first_frame_mse(model, test, h2)
    assert abs(carried - fresh) > 0.1 * fresh or abs(after_other - fresh) > 0.1 * fresh, (fresh, carried, after_other)
    return (
        f"same test clips, first predicted frame MSE: {fresh:.4f} from a zero state, {carried:.4f} with the state "
        f"left by training, {after_other:.4f} after running other clips first"
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
