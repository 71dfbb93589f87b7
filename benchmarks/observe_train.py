"""A tiny training script on the benchmark GPT (benchmarks/targets/gpt.py, 13.8M parameters).

`python benchmarks/observe_train.py [--steps N]` trains with AdamW on random tokens; `train()` is
what benchmarks/observe.py times with and without the Observer.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent / "targets"))
from gpt import BATCH, GPT, VOCAB, T, lm_loss  # noqa: E402


def train(steps: int, seed: int = 0) -> list[float]:
    """Seconds per training step (forward, loss, backward, optimizer step)."""
    torch.manual_seed(seed)
    model = GPT()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    times = []
    for _ in range(steps):
        tokens = torch.randint(0, VOCAB, (BATCH, T))
        start = time.perf_counter()
        opt.zero_grad()
        loss = lm_loss(model(tokens), tokens)
        loss.backward()
        opt.step()
        times.append(time.perf_counter() - start)
    return times


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=20)
    train(parser.parse_args().steps)
