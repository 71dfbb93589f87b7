"""A small PyTorch Lightning run: a time-major GRU classifies token sequences (healthy).

Runs in a few seconds on CPU: `python lightning_healthy.py`.
"""

import lightning.pytorch as pl
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

VOCAB, CLASSES, T, N = 64, 4, 12, 512


def make_data(seed: int) -> TensorDataset:
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(0, VOCAB, (N, T), generator=g)
    labels = tokens[:, 0] % CLASSES  # learnable from the first token
    return TensorDataset(tokens, labels)


class SeqClassifier(pl.LightningModule):
    def __init__(self, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(VOCAB, dim)
        self.rnn = nn.GRU(dim, dim)  # time-major: expects (T, B, C)
        self.drop = nn.Dropout(0.3)
        self.head = nn.Linear(dim, CLASSES)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embed(tokens)  # (B, T, C)
        x = x.transpose(0, 1)  # (T, B, C) for the time-major GRU
        h, _ = self.rnn(x)
        h = h.transpose(0, 1)  # back to (B, T, C)
        return self.head(self.drop(h.mean(dim=1)))

    def training_step(self, batch, batch_idx):
        tokens, labels = batch
        return F.cross_entropy(self(tokens), labels)

    def validation_step(self, batch, batch_idx):
        tokens, labels = batch
        self.log("val_loss", F.cross_entropy(self(tokens), labels))

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=3e-3)


def main(callbacks: list | None = None) -> None:
    pl.seed_everything(0, verbose=False)
    train = DataLoader(make_data(0), batch_size=32, shuffle=True)
    val = DataLoader(make_data(1), batch_size=64)
    trainer = pl.Trainer(
        max_epochs=1,
        limit_train_batches=12,
        limit_val_batches=2,
        accelerator="cpu",
        enable_checkpointing=False,
        logger=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        callbacks=callbacks,
    )
    trainer.fit(SeqClassifier(), train, val)


if __name__ == "__main__":
    main()
