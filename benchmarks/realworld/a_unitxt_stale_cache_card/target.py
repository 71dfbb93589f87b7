"""Dataset 'cards' (lists of preprocessing steps) whose processed output is cached under the card name only."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def raw_split(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = 40.0 + 12.0 * torch.randn(n, 6, generator=g)             # raw sensor-like features
    y = ((x[:, 0] - 40.0) + 0.5 * (x[:, 1] - 40.0) > 0).long()
    return x, y


def standardize(x, y):
    return (x - 40.0) / 12.0, y


class Card:
    def __init__(self, name, steps):
        self.name = name
        self.steps = steps


class ProcessedCache:
    """Stands in for the on-disk cache of processed datasets."""

    def __init__(self):
        self.store = {}
        self.log = []

    def load(self, card, split, seed, n):
        key = (card.name, split)                                 # card content is not part of the key
        if key in self.store:
            self.log.append(f"Loading cached processed dataset for {key}")
            return self.store[key]
        x, y = raw_split(n, seed)
        for step in card.steps:
            x, y = step(x, y)
        self.store[key] = (x, y)
        return x, y


def process_uncached(card, seed, n):
    x, y = raw_split(n, seed)
    for step in card.steps:
        x, y = step(x, y)
    return x, y


def make_target():
    torch.manual_seed(0)
    cache = ProcessedCache()
    cache.load(Card("cards.sensor_binary", steps=[]), "train", seed=1, n=256)          # earlier run
    card_v2 = Card("cards.sensor_binary", steps=[standardize])                        # step added since
    train_x, train_y = cache.load(card_v2, "train", seed=1, n=256)
    val_x, val_y = process_uncached(card_v2, seed=2, n=128)
    model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
    return {
        "model": model,
        "batch": ((train_x[:32],), train_y[:32]),
        "loss_fn": lambda logits, y: F.cross_entropy(logits, y),
        "train_data": (train_x, train_y),
        "val_data": (val_x, val_y),
    }
