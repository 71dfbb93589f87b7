"""Session-parallel GRU recommender: one batch slot per running session; a session-start mask resets the
session-level state when a new session takes the slot over."""

import torch
import torch.nn as nn
import torch.nn.functional as F

N_ITEMS, EMB, HID = 40, 16, 24


class SessionGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(N_ITEMS, EMB)
        self.Wz = nn.Linear(EMB + HID, HID)
        self.Wr = nn.Linear(EMB + HID, HID)
        self.Wh = nn.Linear(EMB + HID, HID)
        self.h_init = nn.Linear(HID, HID)  # new-session state from the user-level state
        self.out = nn.Linear(HID, N_ITEMS)

    def forward(self, items, start, h_prev, h_user):
        x = self.emb(items)
        s = start.unsqueeze(-1)
        h_s = h_prev * (1 - s) + torch.tanh(self.h_init(h_user)) * s
        xh = torch.cat([x, h_s], -1)
        z = torch.sigmoid(self.Wz(xh))
        r = torch.sigmoid(self.Wr(xh))
        cand = torch.tanh(self.Wh(torch.cat([x, r * h_s], -1)))
        h_new = (1 - z) * h_prev + z * cand
        return self.out(h_new)


def make_target():
    torch.manual_seed(0)
    B = 16
    items = torch.randint(0, N_ITEMS, (B,))
    start = (torch.rand(B) < 0.5).float()
    h_prev = torch.randn(B, HID)
    h_user = torch.randn(B, HID)
    nxt = torch.randint(0, N_ITEMS, (B,))
    return {
        "model": SessionGRU(),
        "batch": ((items, start, h_prev, h_user), nxt),
        "loss_fn": F.cross_entropy,
        "optimizer": lambda params: torch.optim.Adagrad(params, lr=0.05),
    }
