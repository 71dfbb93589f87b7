"""Scores from the target's answer-equivalence scorer for the same example, alone and inside different batches."""

import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_n_bem_scores_change_with_batch_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    torch.manual_seed(0)
    model = _load().Scorer().eval()
    ids = torch.randint(0, 200, (6, 24))
    with torch.no_grad():
        alone = torch.cat([model(ids[i : i + 1])[:, 1] for i in range(len(ids))])
        batched = model(ids)[:, 1]
        batched_other = model(torch.cat([ids[:1], torch.randint(0, 200, (3, 24))]))[:, 1]
    assert torch.allclose(alone, torch.ones_like(alone)), alone
    assert (alone - batched).abs().max() > 0.5, (alone, batched)
    assert abs(batched[0] - batched_other[0]) > 0.01, (batched[0], batched_other[0])
    return (
        f"BEM score of example 0: {alone[0]:.2f} alone, {batched[0]:.3f} in a batch of 6, {batched_other[0]:.3f} in another batch of 4; "
        f"every single-example score is 1.00"
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
