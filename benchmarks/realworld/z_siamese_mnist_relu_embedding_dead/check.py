"""Same seed and data, ReLU (as changed) vs PReLU (original): loss and live embedding units."""

import importlib.util
import math
from pathlib import Path

import torch
import torch.nn as nn
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("z_siamese_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


def _run(act):
    torch.manual_seed(_t.SEED)
    net = _t.ClassificationNet(act)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    g = torch.Generator().manual_seed(1)
    for _ in range(200):
        x, y = _t.make_data(g, 128)
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
    xv, _ = _t.make_data(torch.Generator().manual_seed(9), 512)
    with torch.no_grad():
        live = (net.embedding_net(xv) > 0).float().mean(0)
    return loss.item(), live.tolist()


def _check() -> str:
    l_relu, live_relu = _run(nn.ReLU)
    l_prelu, _ = _run(nn.PReLU)
    assert max(live_relu) == 0.0, live_relu
    assert abs(l_relu - math.log(10)) < 0.15, l_relu
    assert l_prelu < 0.6, l_prelu
    return (f"ReLU: loss after 200 steps {l_relu:.3f} (ln 10 = 2.303), fraction of images activating each of the 2 "
            f"embedding units {live_relu}; PReLU, same seed: loss {l_prelu:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
