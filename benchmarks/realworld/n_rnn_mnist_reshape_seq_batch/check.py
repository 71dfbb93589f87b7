"""Train the target's LSTM as written (reshape to seq-first) and with a real transpose; compare accuracy."""

import importlib.util
from pathlib import Path

import torch
from torch import nn

_spec = importlib.util.spec_from_file_location("n_rnn_reshape_target", Path(__file__).with_name("target.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)


class _Fixed(T.RNN):
    def forward(self, images):
        out, _ = self.lstm(images.permute(1, 0, 2))
        return self.fc(out[-1])


def _train(model):
    torch.manual_seed(0)
    xtr, ytr = T.make_data(512, 2)
    xva, yva = T.make_data(256, 3)
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    lossf = nn.CrossEntropyLoss()
    g = torch.Generator().manual_seed(5)
    for epoch in range(6):
        perm = torch.randperm(512, generator=g)
        for i in range(0, 512, 64):
            idx = perm[i:i + 64]
            opt.zero_grad()
            loss = lossf(model(xtr[idx]), ytr[idx])
            loss.backward()
            opt.step()
    with torch.no_grad():
        acc = sum((model(xva[i:i + 64]).argmax(-1) == yva[i:i + 64]).sum().item() for i in range(0, 256, 64)) / 256
    return loss.item(), acc


def _check() -> str:
    torch.manual_seed(0)
    bad_loss, bad_acc = _train(T.RNN())
    torch.manual_seed(0)
    ok_loss, ok_acc = _train(_Fixed())
    assert bad_acc < 0.4 and ok_acc > 0.85, (bad_acc, ok_acc)
    return (f"reshape to (seq,batch,feat): val acc {bad_acc:.2f} (last loss {bad_loss:.2f}); "
            f"with a transpose: val acc {ok_acc:.2f} (last loss {ok_loss:.2f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
