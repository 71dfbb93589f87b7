"""Diff parsing and static cues: each cue fires on its bug shape and stays quiet on the healthy one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from debug_agent.cues import scan_diff, scan_source
from debug_agent.errors import InputError
from debug_agent.intake import diff as diffmod

DIFF = """diff --git a/model.py b/model.py
index 1..2 100644
--- a/model.py
+++ b/model.py
@@ -10,6 +10,6 @@ class Net(nn.Module):
     def forward(self, x):
         B, T, C = x.shape
-        x = x.transpose(0, 1)
+        x = x.reshape(T, B, C)
         h = self.rnn(x)
-        opt.zero_grad()
         return h
"""


def test_parse_files_hunks_and_line_numbers():
    d = diffmod.parse(DIFF)
    assert d.files == ["model.py"]
    (h,) = d.hunks
    assert h.header == "class Net(nn.Module):"
    added = [ln for ln in h.lines if ln.kind == "+"]
    removed = [ln for ln in h.lines if ln.kind == "-"]
    assert [(ln.line, ln.text.strip()) for ln in added] == [(12, "x = x.reshape(T, B, C)")]
    assert [ln.line for ln in removed] == [12, 14]


def test_not_a_diff_is_an_input_error():
    with pytest.raises(InputError, match="unified diff"):
        diffmod.parse("just some text\nwith lines\n")


def test_binary_and_multiple_files():
    text = DIFF + "diff --git a/w.bin b/w.bin\nBinary files a/w.bin and b/w.bin differ\n"
    d = diffmod.parse(text)
    assert d.binary_files == ["w.bin"] and "w.bin" in d.files
    assert any("binary" in n for n in d.notes)


def test_huge_diff_is_capped(monkeypatch):
    monkeypatch.setattr(diffmod, "MAX_DIFF_LINES", 8)
    d = diffmod.parse(DIFF)
    assert any("only the first 8" in n for n in d.notes)


def test_non_utf8_is_replaced_and_noted():
    text, notes = diffmod.decode(DIFF.encode() + b"+ caf\xe9\n")
    assert "\ufffd" in text and notes


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=400))
def test_parser_never_crashes(text):
    try:
        d = diffmod.parse(text)
    except InputError:
        return
    for h in d.hunks:
        assert all(ln.line >= 0 for ln in h.lines)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["+a = 1", "-b = 2", " c = 3", "+x.view(B, T)", "-x.permute(1, 0)"]), max_size=30))
def test_line_numbers_are_consistent(body):
    text = "--- a/f.py\n+++ b/f.py\n@@ -1,1 +1,1 @@\n" + "\n".join(body) + "\n"
    d = diffmod.parse(text)
    new = [ln.line for ln in d.hunks[0].lines if ln.kind != "-"]
    old = [ln.line for ln in d.hunks[0].lines if ln.kind == "-"]
    assert new == sorted(new) and old == sorted(old)


def ids(cues):
    return {c.cue_id for c in cues}


def test_diff_cues_reshape_and_zero_grad():
    cues = scan_diff(diffmod.parse(DIFF))
    assert {"reshape_replaces_permute", "zero_grad_removed"} <= ids(cues)
    (c,) = [c for c in cues if c.cue_id == "reshape_replaces_permute"]
    assert (c.file, c.line, c.origin) == ("model.py", 12, "diff") and "transpose" in c.detail


LINE_CASES = [
    ("softmax_dim0", "p = F.softmax(logits, dim=0)", "p = F.softmax(logits, dim=-1)"),
    ("softmax_dim0", "p = torch.softmax(logits)", "p = torch.softmax(logits, 1)"),
    ("softmax_dim0", "self.act = nn.Softmax(dim=0)", "self.act = nn.Softmax(dim=1)"),
    ("bare_squeeze", "pred = out.squeeze()", "pred = out.squeeze(-1)"),
    ("activation_into_logit_loss", "loss = criterion(torch.softmax(out, -1), y)", "loss = criterion(out, y)"),
    ("unstable_math", "lp = torch.log(torch.softmax(z, -1))", "lp = torch.log_softmax(z, -1)"),
    ("unstable_math", "ll = torch.log(torch.sum(torch.exp(a + b), dim=1))", "ll = torch.logsumexp(a + b, dim=1)"),
    ("unstable_math", "ll = (a + b).exp().sum(1).log()", "ll = (a + b).logsumexp(1)"),
    ("requires_grad_false", "p.requires_grad = False", "p.requires_grad = True"),
    ("lr_large", "opt = torch.optim.SGD(params, lr=5.0)", "opt = torch.optim.SGD(params, lr=0.1)"),
    ("lr_tiny", "opt = torch.optim.Adam(params, lr=1e-8)", "opt = torch.optim.Adam(params, lr=1e-3)"),
    ("batchnorm_batch_stats", "nn.BatchNorm1d(8, track_running_stats=False)", "nn.BatchNorm1d(8)"),
    ("summed_losses", "loss = recon_loss + kl_loss", "loss = recon + kl"),
    ("bootstrap_without_done", "ret = r + gamma * next_value", "ret = r + gamma * next_value * (1 - done)"),
]


@pytest.mark.parametrize("cue,bad,good", LINE_CASES)
def test_line_cues(cue, bad, good):
    src = "def f():\n    {}\n"
    assert cue in ids(scan_source("x.py", src.format(bad)))
    assert cue not in ids(scan_source("x.py", src.format(good)))


def test_forward_only_cues_need_forward():
    bad = "class M:\n    def forward(self, x):\n        h = x.detach()\n        self.cache = h\n        return h\n"
    good = "class M:\n    def helper(self, x):\n        h = x.detach()\n        self.cache = h\n        return h\n"
    assert {"detach_in_forward", "state_in_forward"} <= ids(scan_source("m.py", bad))
    assert not {"detach_in_forward", "state_in_forward"} & ids(scan_source("m.py", good))


FILE_CASES = [
    (
        "missing_zero_grad",
        "def train(m, opt, x, y):\n    loss = m(x).sum()\n    loss.backward()\n    opt.step()\n",
        "def train(m, opt, x, y):\n    opt.zero_grad()\n    loss = m(x).sum()\n    loss.backward()\n    opt.step()\n",
    ),
    (
        "missing_step",
        "def train(m, opt, x):\n    loss = m(x).sum()\n    loss.backward()\n",
        "def train(m, opt, x):\n    loss = m(x).sum()\n    loss.backward()\n    opt.step()\n",
    ),
    (
        "plain_list_modules",
        "class M(nn.Module):\n    def __init__(self):\n        self.layers = [nn.Linear(2, 2) for _ in range(3)]\n",
        "class M(nn.Module):\n    def __init__(self):\n        self.layers = nn.ModuleList([nn.Linear(2, 2)])\n",
    ),
    (
        "view_permutes_shape",
        "def forward(self, x):\n    B, T, C = x.shape\n    return x.view(T, B, C)\n",
        "def forward(self, x):\n    B, T, C = x.shape\n    return x.view(B, T * C)\n",
    ),
    (
        "eval_without_eval_mode",
        "def evaluate(model, x):\n    with torch.no_grad():\n        return model(x)\n",
        "def evaluate(model, x):\n    model.eval()\n    with torch.no_grad():\n        return model(x)\n",
    ),
    (
        "eval_without_train",
        "def fit(model, opt, x):\n    for _ in range(3):\n        model(x).sum().backward()\n        model.eval()\n",
        "def fit(model, opt, x):\n    for _ in range(3):\n        model.train()\n"
        "        model(x).sum().backward()\n        model.eval()\n",
    ),
    (
        "custom_backward",
        "class Op(torch.autograd.Function):\n    @staticmethod\n    def backward(ctx, g):\n        return g\n",
        "class Op(nn.Module):\n    def forward(self, x):\n        return x\n",
    ),
    (
        "module_backward",
        "class GRL(nn.Module):\n    def forward(self, x):\n        return x\n\n    def backward(self, g):\n        return -g\n",
        "class Lit(L.LightningModule):\n    def backward(self, loss):\n        loss.backward()\n",
    ),
    (
        "separate_shuffle",
        "def load(X, y):\n    X = X[torch.randperm(len(X))]\n    y = y[torch.randperm(len(y))]\n",
        "def load(X, y):\n    idx = torch.randperm(len(X))\n    X, y = X[idx], y[idx]\n",
    ),
    (
        "fit_before_split",
        "mu = X.mean(dim=0)\nX = (X - mu)\ntrain, val = random_split(ds, [8, 2])\n",
        "train, val = random_split(ds, [8, 2])\nmu = train_x.mean(dim=0)\n",
    ),
    (
        "saturating_stack",
        "net = nn.Sequential(nn.Sigmoid(), nn.Sigmoid(), nn.Tanh(), nn.Sigmoid())\n",
        "net = nn.Sequential(nn.ReLU(), nn.Sigmoid())\n",
    ),
]


@pytest.mark.parametrize("cue,bad,good", FILE_CASES)
def test_file_cues(cue, bad, good):
    assert cue in ids(scan_source("t.py", bad))
    assert cue not in ids(scan_source("t.py", good))


HUNK_CASES = [
    (
        "clip_removed",
        "-    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)\n+    pass\n",
        "-    torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)\n"
        "+    torch.nn.utils.clip_grad_norm_(m.parameters(), 5.0)\n",
    ),
    ("normalization_removed", "-    x = (x - mean) / std\n+    x = x\n", "-    x = x\n+    x = (x - mean) / std\n"),
    (
        "squeeze_removed",
        "-    return self.net(x).squeeze(-1)\n+    return self.net(x)\n",
        "-    return self.net(x)\n+    return self.net(x).squeeze(-1)\n",
    ),
]


@pytest.mark.parametrize("cue,bad,good", HUNK_CASES)
def test_hunk_cues(cue, bad, good):
    head = "--- a/f.py\n+++ b/f.py\n@@ -1,2 +1,2 @@\n"
    assert cue in ids(scan_diff(diffmod.parse(head + bad)))
    assert cue not in ids(scan_diff(diffmod.parse(head + good)))


DIFF_LINE_CASES = [
    ("mask_edit", "+    attn_mask = None"),
    ("ignore_index_edit", "+    labels[labels == pad] = -100"),
    ("init_edit", "+    nn.init.constant_(self.fc.bias, -5.0)"),
    ("cache_touched", "+    cache_dir = 'features_v2'"),
    ("metric_edit", "+    acc = (pred == y).float().mean()"),
    ("target_reshape", "+    y = y.view(-1, 1)"),
]


@pytest.mark.parametrize("cue,line", DIFF_LINE_CASES)
def test_diff_only_cues(cue, line):
    text = "--- a/f.py\n+++ b/f.py\n@@ -1,1 +1,1 @@\n" + line + "\n"
    assert cue in ids(scan_diff(diffmod.parse(text)))
    assert cue not in ids(scan_source("f.py", line[1:] + "\n"))


def test_metric_edit_reads_the_function_a_hunk_sits_in():
    """A change to a match count inside `aa_match_metrics` is a metric change though no line names one."""
    body = "@@ -1,1 +1,1 @@ def {}(preds, truth):\n-    n += int(a == b)\n+    n += int(str(a) == b)\n"
    assert "metric_edit" in ids(scan_diff(diffmod.parse("--- a/f.py\n+++ b/f.py\n" + body.format("aa_match_metrics"))))
    assert "metric_edit" not in ids(scan_diff(diffmod.parse("--- a/f.py\n+++ b/f.py\n" + body.format("collate_pairs"))))
