"""Tiny Tacotron-like text-to-mel model: character embedding -> conv + GRU encoder -> frame-wise mel decoder."""
import torch
import torch.nn as nn

N_SYMBOLS, N_MELS, T = 40, 20, 24
EPOCHS = 8
BATCH_SIZE = 32


class TinyTacotron(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.embed = nn.Embedding(N_SYMBOLS, dim)
        self.conv = nn.Sequential(nn.Conv1d(dim, dim, 5, padding=2), nn.ReLU())
        self.rnn = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.mel = nn.Linear(2 * dim, N_MELS)

    def forward(self, text):
        h = self.embed(text)
        h = self.conv(h.transpose(1, 2)).transpose(1, 2)
        h, _ = self.rnn(h)
        return self.mel(h)


def corpus(n, seed):
    g = torch.Generator().manual_seed(seed)
    text = torch.randint(0, N_SYMBOLS, (n, T), generator=g)
    table = torch.randn(N_SYMBOLS, N_MELS, generator=torch.Generator().manual_seed(11))
    mel = table[text]
    mel = 0.5 * mel + 0.3 * torch.roll(mel, 1, dims=1) + 0.2 * torch.roll(mel, -1, dims=1)
    return text, mel + 0.05 * torch.randn(mel.shape, generator=g)


def make_target():
    torch.manual_seed(0)
    model = TinyTacotron()
    train = corpus(256, 1)
    val = corpus(64, 2)
    return {
        "model": model,
        "batch": (train[0][:BATCH_SIZE], train[1][:BATCH_SIZE]),
        "loss_fn": nn.L1Loss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "train_data": train,
        "val_data": val,
    }
