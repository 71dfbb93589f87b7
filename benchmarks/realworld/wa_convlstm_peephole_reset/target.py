"""Small ConvLSTM next-frame regressor with peephole weights (Wci, Wcf, Wco), CPU version.

The peephole weights are created inside init_hidden, which runs at the first time step of every forward.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvLSTMCell(nn.Module):
    def __init__(self, in_ch, hid_ch, k=3):
        super().__init__()
        p = k // 2
        self.hid_ch = hid_ch
        self.Wxi = nn.Conv2d(in_ch, hid_ch, k, 1, p)
        self.Whi = nn.Conv2d(hid_ch, hid_ch, k, 1, p, bias=False)
        self.Wxf = nn.Conv2d(in_ch, hid_ch, k, 1, p)
        self.Whf = nn.Conv2d(hid_ch, hid_ch, k, 1, p, bias=False)
        self.Wxc = nn.Conv2d(in_ch, hid_ch, k, 1, p)
        self.Whc = nn.Conv2d(hid_ch, hid_ch, k, 1, p, bias=False)
        self.Wxo = nn.Conv2d(in_ch, hid_ch, k, 1, p)
        self.Who = nn.Conv2d(hid_ch, hid_ch, k, 1, p, bias=False)
        self.Wci = None
        self.Wcf = None
        self.Wco = None

    def forward(self, x, h, c):
        ci = torch.sigmoid(self.Wxi(x) + self.Whi(h) + c * self.Wci)
        cf = torch.sigmoid(self.Wxf(x) + self.Whf(h) + c * self.Wcf)
        cc = cf * c + ci * torch.tanh(self.Wxc(x) + self.Whc(h))
        co = torch.sigmoid(self.Wxo(x) + self.Who(h) + cc * self.Wco)
        return co * torch.tanh(cc), cc

    def init_hidden(self, batch, shape):
        hc = self.hid_ch
        self.Wci = torch.zeros(1, hc, shape[0], shape[1])
        self.Wcf = torch.zeros(1, hc, shape[0], shape[1])
        self.Wco = torch.zeros(1, hc, shape[0], shape[1])
        return torch.zeros(batch, hc, *shape), torch.zeros(batch, hc, *shape)


class ConvLSTM(nn.Module):
    def __init__(self, in_ch=1, hidden=(8, 4), steps=4):
        super().__init__()
        chans = [in_ch] + list(hidden)
        self.steps = steps
        self.cells = nn.ModuleList(ConvLSTMCell(chans[i], chans[i + 1]) for i in range(len(hidden)))
        self.out = nn.Conv2d(hidden[-1], in_ch, 1)

    def forward(self, seq):
        # seq: (batch, steps, ch, H, W)
        states = []
        for t in range(self.steps):
            x = seq[:, t]
            for i, cell in enumerate(self.cells):
                if t == 0:
                    states.append(cell.init_hidden(x.size(0), x.shape[-2:]))
                h, c = states[i]
                x, c = cell(x, h, c)
                states[i] = (x, c)
        return self.out(x)


def make_data(n=16, steps=4, size=8, seed=0):
    g = torch.Generator().manual_seed(seed)
    base = torch.rand(n, 1, 1, size, size, generator=g)
    frames = [torch.roll(base, shifts=s, dims=-1) for s in range(steps + 1)]   # a pattern drifting right
    seq = torch.cat(frames[:steps], 1)
    return seq, frames[steps][:, 0]


def loss_fn(pred, target):
    return F.mse_loss(pred, target)


def make_target():
    torch.manual_seed(0)
    seq, nxt = make_data()
    return {
        "model": ConvLSTM(),
        "batch": (seq, nxt),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "val_data": [make_data(seed=1)],
    }
