import importlib.util
import pathlib

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_e_yolo_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class _Indexed(torch.utils.data.Dataset):
    def __init__(self, base):
        self.base = base

    def __len__(self):
        return len(self.base)

    def __getitem__(self, idx):
        x, t = self.base[idx]
        return x, t, idx


def _agreement(mod, shuffle):
    ds = mod.CursorDataset(1024, 1)
    loader = DataLoader(_Indexed(ds), batch_size=32, shuffle=shuffle, generator=torch.Generator().manual_seed(0))
    hits = [(t == ds.y[i]).float() for _, t, i in loader]
    return torch.cat(hits).mean().item()


def _train(mod, shuffle):
    torch.manual_seed(0)
    model = mod.build()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    ds = mod.CursorDataset(1024, 1)
    for _ in range(5):
        for x, t in DataLoader(ds, batch_size=32, shuffle=shuffle, generator=torch.Generator().manual_seed(1)):
            loss = F.cross_entropy(model(x), t)
            opt.zero_grad()
            loss.backward()
            opt.step()
    val = mod.CursorDataset(512, 2)
    with torch.no_grad():
        return (model(val.x).argmax(1) == val.y).float().mean().item()


def _check() -> str:
    mod = _load()
    agree_shuf, agree_seq = _agreement(mod, True), _agreement(mod, False)
    acc_shuf, acc_seq = _train(mod, True), _train(mod, False)
    assert agree_shuf < 0.5 and agree_seq == 1.0, (agree_shuf, agree_seq)
    assert acc_shuf < 0.45 and acc_seq > 0.8, (acc_shuf, acc_seq)
    return (
        f"targets match their sample {agree_shuf:.2f} with shuffle=True vs {agree_seq:.2f} without; "
        f"val accuracy {acc_shuf:.2f} vs {acc_seq:.2f} (4 classes)"
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
