"""Shows that the dataset built with pre_transform=normalize_scale still serves the raw, unnormalised positions
because the processed file from the earlier run is loaded; after deleting root/processed they are in [-1, 1]."""
import importlib.util
import shutil
import tempfile
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("yc_pyg_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    mod.ROOT = tempfile.mkdtemp(prefix="yc_pyg_")
    try:
        t = mod.make_target()
        x, _ = t["batch"]
        stale = x.abs().max().item()
        shutil.rmtree(Path(mod.ROOT) / "processed")
        fresh_ds = mod.ModelNetSmall(mod.ROOT, train=True, pre_transform=mod.normalize_scale)
        fresh = fresh_ds.pos.abs().max().item()
    finally:
        shutil.rmtree(mod.ROOT, ignore_errors=True)
    assert stale > 100, stale
    assert fresh <= 1.0 + 1e-6, fresh
    return (f"with pre_transform=normalize_scale the loaded positions still reach |pos| = {stale:.0f}; "
            f"after removing root/processed and reprocessing, max |pos| = {fresh:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
