"""CNN+LSTM video classifier: per-frame embeddings (B, T, F) are made sequence-first with .view, not .transpose."""

import torch
import torch.nn as nn
import torch.nn.functional as F

T, H, W, FEAT, HID, CLASSES = 8, 12, 12, 32, 48, 4


class FrameEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8 * (H // 2) * (W // 2), FEAT)

    def forward(self, frames):  # (N, 1, H, W)
        x = F.max_pool2d(F.relu(self.conv(frames)), 2)
        return F.relu(self.fc(x.flatten(1)))


class CRNN(nn.Module):
    def __init__(self, transpose_fix=False):
        super().__init__()
        self.transpose_fix = transpose_fix
        self.encoder = FrameEncoder()
        self.lstm = nn.LSTM(FEAT, HID)  # sequence-first (T, B, F)
        self.fc = nn.Linear(HID, CLASSES)

    def forward(self, clips):  # (B, T, 1, H, W)
        b, t = clips.shape[:2]
        emb = self.encoder(clips.flatten(0, 1)).view(b, t, FEAT)  # batch-first (B, T, F)
        if self.transpose_fix:
            seq = emb.transpose(0, 1)
        else:
            seq = emb.view(t, b, FEAT)
        out, _ = self.lstm(seq)
        return self.fc(out[-1])


def make_clips(n, g):
    """A bright dot moves across the frame; the class is its direction of motion."""
    labels = torch.randint(0, CLASSES, (n,), generator=g)
    clips = 0.1 * torch.randn(n, T, 1, H, W, generator=g)
    for i in range(n):
        r0, c0 = int(torch.randint(3, H - 3, (1,), generator=g)), int(torch.randint(3, W - 3, (1,), generator=g))
        dr, dc = [(0, 1), (0, -1), (1, 0), (-1, 0)][int(labels[i])]
        for t in range(T):
            r, c = (r0 + dr * (t - T // 2) // 2) % H, (c0 + dc * (t - T // 2) // 2) % W
            clips[i, t, 0, r, c] += 2.0
    return clips, labels


def make_target():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    x, y = make_clips(16, g)
    return {
        "model": CRNN(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
    }
