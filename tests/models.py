"""Small buggy and healthy models for probe tests (each probe is tested on both)."""

from __future__ import annotations

import torch
from torch import nn

from debug_agent.schemas import Target


class SeqModel(nn.Module):
    """Token classifier around a time-major GRU; `bug` replaces the transposes with reshapes."""

    def __init__(self, bug: bool, vocab: int = 32, dim: int = 16, classes: int = 3) -> None:
        super().__init__()
        self.bug = bug
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)  # (B, T, C)
        B, T, C = x.shape
        x = x.reshape(T, B, C) if self.bug else x.transpose(0, 1)
        h, _ = self.rnn(x)  # (T, B, C)
        h = h.reshape(B, T, C) if self.bug else h.transpose(0, 1)
        return self.head(h[:, -1])


def seq_target(bug: bool, batch: int = 8, steps: int = 10) -> Target:
    torch.manual_seed(0)
    tokens = torch.randint(0, 32, (batch, steps))
    return Target(model=SeqModel(bug), batch=(tokens, tokens[:, 0] % 3), loss_fn=nn.CrossEntropyLoss())


class Regressor(nn.Module):
    def __init__(self, squeeze: bool) -> None:
        super().__init__()
        self.squeeze = squeeze
        self.net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.net(x)  # (N, 1)
        return out.squeeze(-1) if self.squeeze else out


def mse(pred: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return ((pred - y) ** 2).mean()


def regression_target(bug: bool, n: int = 32) -> Target:
    torch.manual_seed(0)
    x = torch.randn(n, 4)
    y = 2 * x[:, 0] - x[:, 1]  # (N,)
    return Target(
        model=Regressor(squeeze=not bug), batch=(x, y), loss_fn=mse, optimizer=lambda p: torch.optim.Adam(p, lr=1e-2)
    )


class BatchStatNet(nn.Module):
    """Batch norm without running statistics couples rows even in eval mode."""

    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.fc = nn.Linear(4, 8)
        self.bn = nn.BatchNorm1d(8, track_running_stats=not bug)
        self.out = nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.bn(self.fc(x))))


class SoftmaxNet(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.dim = dim
        self.fc = nn.Linear(4, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.fc(x), dim=self.dim)


class CausalLM(nn.Module):
    """One attention layer; `bug` drops the causal mask."""

    def __init__(self, bug: bool, vocab: int = 20, dim: int = 8) -> None:
        super().__init__()
        self.bug = bug
        self.embed = nn.Embedding(vocab, dim)
        self.attn = nn.MultiheadAttention(dim, 2, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)  # (B, T, C)
        T = x.shape[1]
        mask = None if self.bug else torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
        h, _ = self.attn(x, x, x, attn_mask=mask)
        return self.out(h)  # (B, T, vocab)


def causal_target(bug: bool) -> Target:
    torch.manual_seed(0)
    tokens = torch.randint(0, 20, (4, 12))
    return Target(model=CausalLM(bug), batch=(tokens, tokens), causal=True)


class SeqFirstTagger(nn.Module):
    """Per-token tagger that works sequence-first inside: tokens (B, T) -> logits (T, B, classes).

    `bug` turns the (B, T) -> (T, B) transpose into a reshape, which scrambles rows.
    """

    def __init__(self, bug: bool = False, vocab: int = 32, dim: int = 16, classes: int = 3) -> None:
        super().__init__()
        self.bug = bug
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim)  # time-major, batch_first=False
        self.head = nn.Linear(dim, classes)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        B, T = tokens.shape
        tokens = tokens.reshape(T, B) if self.bug else tokens.t()
        h, _ = self.rnn(self.embed(tokens))  # (T, B, C)
        return self.head(h)  # (T, B, classes)


def seq_first_target(bug: bool = False, batch: int = 6, steps: int = 9) -> Target:
    torch.manual_seed(0)
    tokens = torch.randint(0, 32, (batch, steps))

    def loss_fn(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return nn.functional.cross_entropy(out.reshape(-1, out.shape[-1]), y.t().reshape(-1))

    return Target(model=SeqFirstTagger(bug), batch=(tokens, tokens % 3), loss_fn=loss_fn)


class SeqFirstEncoder(nn.Module):
    """A Transformer encoder with batch_first=False: (B, T, C) floats transposed to (T, B, C) inside."""

    def __init__(self, dim: int = 16, classes: int = 3) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, dropout=0.1, batch_first=False)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = nn.Linear(dim, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.encoder(x.transpose(0, 1)))  # (T, B, classes)


def seq_first_encoder_target(batch: int = 8, steps: int = 8) -> Target:
    torch.manual_seed(0)
    x = torch.randn(batch, steps, 16)
    y = torch.randint(0, 3, (batch, steps))

    def loss_fn(out: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        return nn.functional.cross_entropy(out.reshape(-1, out.shape[-1]), target.t().reshape(-1))

    return Target(model=SeqFirstEncoder(), batch=(x, y), loss_fn=loss_fn)


class _Block(nn.Module):
    def __init__(self, c: int) -> None:
        super().__init__()
        self.a = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.b = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.bn2(self.b(torch.relu(self.bn1(self.a(x))))))


class TinyResNet(nn.Module):
    """A ResNet-like conv net: stem, residual blocks with BatchNorm, max-pool, global average pool."""

    def __init__(self, c: int = 16, classes: int = 10) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.blocks = nn.Sequential(_Block(c), nn.MaxPool2d(2), _Block(c))
        self.fc = nn.Linear(c, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.blocks(self.stem(x)).mean(dim=(2, 3)))


def resnet_target(lr: float = 0.1, batch: int = 16) -> Target:
    """The textbook recipe: SGD, lr 0.1, momentum 0.9, weight decay 5e-4."""
    torch.manual_seed(0)
    x = torch.randn(batch, 3, 8, 8)
    y = torch.randint(0, 10, (batch,))
    return Target(
        model=TinyResNet(c=8),
        batch=(x, y),
        loss_fn=nn.CrossEntropyLoss(),
        optimizer=lambda p: torch.optim.SGD(p, lr=lr, momentum=0.9, weight_decay=5e-4),
    )
