"""The encoder with the mis-merged heads: outputs depend on the batch, and it trains worse than one merging correctly."""

import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_f_relpe_mha_heads_viewed_batch_order_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fixed(mod):
    class Fixed(mod.MultiHeadAttention):
        def forward(self, x):
            batch_size, seq_len, _ = x.shape
            q, k, v = (self._split(t, batch_size) for t in self.qkv(x).chunk(3, dim=-1))
            idx = torch.arange(seq_len)
            bias = self.rel[:, idx[None, :] - idx[:, None] + 15].repeat(batch_size, 1, 1)
            out = ((q @ k.transpose(1, 2) / self.head_dim ** 0.5 + bias).softmax(-1) @ v)
            out = out.view(batch_size, self.num_heads, seq_len, self.head_dim).transpose(1, 2)
            return self.out(out.reshape(batch_size, seq_len, -1))

    return Fixed


def _train(mod, attention, epochs=6):
    torch.manual_seed(0)
    model = mod.Classifier(attention)
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    x, y = mod.sequences(2048, 2)
    for _ in range(epochs):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            F.cross_entropy(model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    model.eval()
    vx, vy = mod.sequences(512, 3)
    with torch.no_grad():
        return model, (model(vx).argmax(1) == vy).float().mean().item()


def _check() -> str:
    mod = _load()
    model, acc_bug = _train(mod, mod.MultiHeadAttention)
    _, acc_ok = _train(mod, _fixed(mod))
    vx, _ = mod.sequences(32, 4)
    with torch.no_grad():
        together = model(vx)
        alone = torch.cat([model(vx[i : i + 1]) for i in range(32)])
    diff = (together - alone).abs().max().item()
    assert diff > 1e-2, diff
    assert acc_bug < acc_ok - 0.2, (acc_bug, acc_ok)
    return (f"eval outputs differ by up to {diff:.2f} between batch size 32 and 1; "
            f"6 epochs: val accuracy {acc_bug:.2f} vs {acc_ok:.2f} with heads merged correctly")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
