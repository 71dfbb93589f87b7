"""Speech-to-text style acoustic model: stacked ReLU RNN over 13-dim MFCC frames, per-frame character logits."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_MFCC, HID, N_CHARS, T = 13, 64, 29, 100


class AcousticRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.RNN(N_MFCC, HID, num_layers=2, nonlinearity="relu", batch_first=True)
        self.out = nn.Linear(HID, N_CHARS)
        for name, p in self.rnn.named_parameters():  # IRNN-style init for the ReLU recurrence
            if name.startswith("weight_hh"):
                nn.init.eye_(p)
                with torch.no_grad():
                    p.mul_(0.9)
            elif name.startswith("bias"):
                nn.init.zeros_(p)

    def forward(self, feats):
        h, _ = self.rnn(feats)
        return self.out(h)


def frame_loss(logits, chars):
    return F.cross_entropy(logits.reshape(-1, N_CHARS), chars.reshape(-1))


def utterances(n, seed):
    g = torch.Generator().manual_seed(seed)
    chars = torch.randint(0, N_CHARS, (n, T), generator=g)
    proto = torch.randn(N_CHARS, N_MFCC, generator=torch.Generator().manual_seed(0))
    feats = proto[chars] + 0.5 * torch.randn(n, T, N_MFCC, generator=g)
    return feats, chars


def make_target():
    torch.manual_seed(0)
    return {
        "model": AcousticRNN(),
        "batch": utterances(8, 1),
        "loss_fn": frame_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
        "train_data": [utterances(8, 10 + i) for i in range(20)],
    }
