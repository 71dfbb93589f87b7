"""The embedding-derived key mask keeps every padded key (positional encodings make them non-zero): the prediction for
the same sentence changes with the padded length; a mask built from the token ids does not."""

import importlib.util
from pathlib import Path

import torch
import torch.nn.functional as F

_spec = importlib.util.spec_from_file_location("x_kyubyong_target", Path(__file__).with_name("target.py"))
_t = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_t)


class _Fixed(_t.AttnClassifier):
    def forward(self, ids):
        x = self.emb(ids) + self.pe[: ids.shape[1]]
        key_mask = (ids != _t.PAD).float()
        scores = self.q(x) @ self.k(x).transpose(1, 2) / (_t.D ** 0.5)
        scores = scores.masked_fill(key_mask[:, None, :] == 0, -1e9)
        return self.out((torch.softmax(scores, -1) @ self.v(x))[:, 0])


def _train(model):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    g = torch.Generator().manual_seed(1)
    for _ in range(300):
        ids, y = _t.make_batch(g, t=12)
        loss = F.cross_entropy(model(ids), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    ids, y = _t.make_batch(torch.Generator().manual_seed(7), n=512, t=12)
    long_ids = torch.cat([ids, torch.zeros(ids.shape[0], 36, dtype=torch.long)], 1)
    with torch.no_grad():
        a, b = model(ids), model(long_ids)
        x = model.emb(long_ids) + model.pe[:48]
        kept = torch.sign(x.abs().sum(-1))[long_ids == _t.PAD].mean().item()
    flips = (a.argmax(-1) != b.argmax(-1)).float().mean().item()
    pa, pb = a.softmax(-1)[:, 1], b.softmax(-1)[:, 1]
    return flips, (pa - pb).abs().mean().item(), (a - b).abs().max().item(), kept


def _check() -> str:
    torch.manual_seed(0)
    flips, dprob, diff, kept = _train(_t.AttnClassifier())
    torch.manual_seed(0)
    ok_flips, ok_dprob, ok_diff, _ = _train(_Fixed())
    assert kept == 1.0, kept
    assert diff > 0.5 and dprob > 0.02, (diff, dprob, flips)
    assert ok_diff < 1e-4 and ok_flips == 0.0, (ok_diff, ok_flips)
    return (f"embedding-sum mask keeps {kept:.0%} of padded keys; same sentences padded to 12 vs 48: "
            f"mean |dp| {dprob:.3f}, max logit change {diff:.2f}, {flips:.1%} predictions flip; "
            f"mask from ids: max change {ok_diff:.1e}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
