"""Diff cues for deleted lines and common edits: each fires on a small buggy diff, stays quiet on its twin,
and the catalog sends it to the cause it names."""

from __future__ import annotations

import pytest

from debug_agent.cues import scan_diff
from debug_agent.engine import catalog
from debug_agent.engine.evidence import Ledger, add_cues
from debug_agent.intake import diff as diffmod

HEAD = "--- a/model.py\n+++ b/model.py\n@@ -1,6 +1,6 @@\n"

# (cue, cause it supports, buggy hunk body, healthy hunk body)
CASES = [
    (
        "causal_mask_removed",
        "mask.causal_leak",
        "     att = q @ k.transpose(-2, -1)\n-    att = att.masked_fill(self.mask[:T, :T] == 0, float('-inf'))\n"
        "     att = att.softmax(-1)\n",
        "     att = q @ k.transpose(-2, -1)\n-    att = att.masked_fill(self.mask[:T, :T] == 0, float('-inf'))\n"
        "+    att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float('-inf'))\n",
    ),
    (
        "causal_mask_removed",
        "mask.causal_leak",
        "-    mask = torch.tril(torch.ones(T, T))\n+    mask = torch.ones(T, T)\n",
        "-    mask = torch.tril(torch.ones(T, T))\n+    mask = torch.tril(torch.ones(T, T, device=x.device))\n",
    ),
    (
        "eval_call_removed",
        "mode.train_at_eval",
        " def validate(model, loader):\n-    model.eval()\n     with torch.no_grad():\n",
        " def validate(model, loader):\n-    model.eval()\n+    model.eval()  # before no_grad\n",
    ),
    (
        "zero_grad_removed",
        "optim.missing_zero_grad",
        "     for x, y in loader:\n-        optimizer.zero_grad()\n         loss = crit(model(x), y)\n",
        "     for x, y in loader:\n-        optimizer.zero_grad()\n+        optimizer.zero_grad(set_to_none=True)\n",
    ),
    (
        "unsorted_listings_paired",
        "data.label_misalignment",
        "+        self.images = os.listdir(img_dir)\n+        self.masks = os.listdir(mask_dir)\n",
        "+        self.images = sorted(os.listdir(img_dir))\n+        self.masks = sorted(os.listdir(mask_dir))\n",
    ),
    (
        "cached_preprocessing_changed",
        "data.stale_cache",
        "     if os.path.exists(cache):\n         feats = np.load(cache)\n"
        "-    x = x / 255\n+    x = (x - mean) / std\n",
        "-        data = np.load(path)\n-        self.x = data['x']\n"
        "+        self.x = np.load(os.path.join(d, 'x.npy'))\n",
    ),
    (
        "cached_preprocessing_changed",
        "data.stale_cache",
        "     if os.path.exists(cache):\n         feats = np.load(cache)\n"
        "-    x = x / 255\n+    x = (x - mean) / std\n",
        # pretrained weights loaded beside a freeze: a checkpoint, not a cache of preprocessed data
        "     model.load_state_dict(torch.load(cfg.pretrained), strict=False)\n"
        "+    for p in model.backbone.parameters():\n+        p.requires_grad = False\n",
    ),
    (
        "accumulator_reset_removed",
        "state.cross_batch",
        "     metric = self.f1.compute()\n     self.log('val/f1', metric)\n-    self.f1.reset()\n",
        # an environment reset deleted is an RL episode boundary, not an accumulator
        "     if done:\n-        obs = env.reset()\n+        obs = first_obs\n",
    ),
    (
        "eval_helper_in_train_loop",
        "mode.eval_at_train",
        "+def evaluate(model):\n+    model.eval()\n+    return score(model)\n"
        " model.train()\n for epoch in range(3):\n     train_one_epoch(model)\n+    evaluate(model)\n",
        "+def evaluate(model):\n+    model.eval()\n+    return score(model)\n"
        " for epoch in range(3):\n     model.train()\n     train_one_epoch(model)\n+    evaluate(model)\n",
    ),
    (
        "eval_helper_in_train_loop",
        "mode.eval_at_train",
        "+    def check(self):\n+        self.model.eval()\n+        return score(self.model)\n"
        "     def fit(self):\n         self.model.train()\n         for x, y in self.loader:\n"
        "+            self.check()\n             self.opt.zero_grad()\n             loss(x, y).backward()\n",
        "+    def check(self):\n+        self.model.eval()\n+        s = score(self.model)\n"
        "+        self.model.train()\n"
        "     def fit(self):\n         self.model.train()\n         for x, y in self.loader:\n"
        "+            self.check()\n             self.opt.zero_grad()\n             loss(x, y).backward()\n",
    ),
    (
        "loss_mask_edit",
        "loss.padding_counted",
        "-    loss_mask = attention_mask[:, 1:]\n+    loss_mask = attention_mask[:, :-1]\n",
        "-    attn_mask = make_mask(x)\n+    attn_mask = make_mask(x, causal=True)\n",
    ),
    (
        "permute_removed",
        "layout.reshape_permute",
        "     out = att @ v  # (B, H, T, D)\n-    out = out.transpose(1, 2)\n     out = out.reshape(B, T, H * D)\n",
        "     out = att @ v\n-    out = out.transpose(1, 2)\n+    out = out.transpose(1, 2).contiguous()\n",
    ),
    (
        "reshape_replaces_permute",
        "layout.reshape_permute",
        "-    h = h.t()\n+    h = h.view(h.shape[1], h.shape[0])\n",
        "-    h = h.t()\n+    h = h.t().contiguous()\n",
    ),
    (
        "softmax_dim_changed",
        "loss.wrong_dim",
        "-    logp = F.log_softmax(logits, dim=-1)\n+    logp = F.log_softmax(logits, dim=1)\n",
        "-    logp = F.log_softmax(logits, dim=-1)\n+    logp = F.log_softmax(logits.float(), dim=-1)\n",
    ),
    (
        "softmax_dim_changed",
        "loss.wrong_dim",
        "-    p = torch.softmax(scores, -1)\n+    p = torch.softmax(scores, 0)\n",
        "-    p = torch.softmax(scores, -1)\n+    p = torch.softmax(scores / t, -1)\n",
    ),
    (
        "label_shift_changed",
        "data.label_misalignment",
        "     input_ids = batch[:, :-1]\n-    labels = batch[:, 1:]\n+    labels = batch\n",
        "     input_ids = batch[:, :-1]\n-    labels = batch[:, 1:]\n+    labels = batch[:, 1:].contiguous()\n",
    ),
    (
        "label_shift_changed",
        "data.label_misalignment",
        "+    shift_labels = labels[..., 1:].contiguous()\n     loss = F.cross_entropy(logits, labels)\n",
        "     x = self.proj(x)\n+    x = self.drop(x)\n",
    ),
    (
        "attn_scale_removed",
        "attn.unscaled_scores",
        "-    att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))\n+    att = q @ k.transpose(-2, -1)\n",
        "-    att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))\n"
        "+    att = (q @ k.transpose(-2, -1)) * self.scale\n",
    ),
    (
        "grad_accum_division_removed",
        "optim.grad_accum_unscaled",
        "-        loss = loss / accum_steps\n         loss.backward()\n",
        "-        loss = loss / accum_steps\n+        loss = loss / self.accum_steps\n",
    ),
    (
        "scheduler_step_in_batch_loop",
        "optim.scheduler_misstep",
        " for epoch in range(epochs):\n     for x, y in loader:\n         optimizer.step()\n"
        "-    scheduler.step()\n+        scheduler.step()\n",
        " for epoch in range(epochs):\n     for x, y in loader:\n         optimizer.step()\n"
        "-    scheduler.step()\n+    scheduler.step()  # once per epoch\n",
    ),
    (
        "scheduler_step_in_batch_loop",
        "optim.scheduler_misstep",
        " for step, (x, y) in enumerate(train_loader):\n     optimizer.step()\n+    lr_scheduler.step()\n",
        " for epoch in range(epochs):\n     train_one_epoch(model)\n+    lr_scheduler.step()\n",
    ),
    (
        "freeze_removed",
        "optim.frozen_params_train",
        " for p in model.backbone.parameters():\n-    p.requires_grad = False\n+    pass\n",
        " for p in model.backbone.parameters():\n-    p.requires_grad = False\n+    p.requires_grad_(False)\n",
    ),
    (
        "optimizer_all_params",
        "optim.frozen_params_train",
        "-opt = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-3)\n"
        "+opt = torch.optim.Adam(model.parameters(), lr=1e-3)\n",
        "-opt = torch.optim.Adam(model.parameters(), lr=1e-3)\n+opt = torch.optim.Adam(model.parameters(), lr=3e-4)\n",
    ),
    (
        "ignore_index_removed",
        "loss.padding_counted",
        "-crit = nn.CrossEntropyLoss(ignore_index=tok.pad_token_id)\n+crit = nn.CrossEntropyLoss()\n",
        "-crit = nn.CrossEntropyLoss(ignore_index=tok.pad_token_id)\n+crit = nn.CrossEntropyLoss(ignore_index=-100)\n",
    ),
    (
        "batch_shrunk_lr_kept",
        "optim.lr_too_high",
        " cfg = dict(\n     lr=0.1,\n-    batch_size=256,\n+    batch_size=32,\n )\n",
        " cfg = dict(\n-    lr=0.1,\n-    batch_size=256,\n+    lr=0.0125,\n+    batch_size=32,\n )\n",
    ),
    (
        "padding_mask_dropped",
        "mask.padding_attended",
        "-        out = self.encoder(ids, attention_mask=mask)\n+        out = self.encoder(ids)\n",
        "-        out = self.encoder(ids, attention_mask=mask)\n+        out = self.encoder(x, attention_mask=mask)\n",
    ),
    (
        "softmax_added_to_output",
        "loss.double_activation",
        "     s = self.fc(x).squeeze(-1)\n+    s = F.softmax(s, dim=-1)\n     return s\n",
        "     s = self.fc(x).squeeze(-1)\n+    p = F.softmax(s, dim=-1)\n     return s\n",
    ),
    (
        "softmax_added_to_output",
        "loss.double_activation",
        "-        return self.head(h)\n+        return torch.softmax(self.head(h), dim=-1)\n",
        "-        return self.head(h)\n+        return torch.log_softmax(self.head(h), dim=-1)\n",
    ),
    (
        "softmax_added_to_output",
        "loss.double_activation",
        "-        logits = self.lm_head(h)\n+        z = self.lm_head(h)\n+        logits = F.softmax(z, dim=-1)\n"
        "         loss = F.cross_entropy(logits.view(-1, V), targets.view(-1))\n",
        "-        logits = self.lm_head(h)\n+        z = self.lm_head(h)\n+        probs = F.softmax(z, dim=-1)\n"
        "         loss = F.cross_entropy(z.view(-1, V), targets.view(-1))\n",
    ),    (
        "state_reset_hoisted",
        "state.cross_batch",
        "     def forward(self, x):\n+        h = x.new_zeros(self.hidden)\n         for b in range(x.shape[0]):\n"
        "-            h = x.new_zeros(self.hidden)\n             h = torch.tanh(self.cell(x[b]) + self.w(h))\n",
        "         for b in range(x.shape[0]):\n-            h = x.new_zeros(self.hidden)\n"
        "+            h = torch.zeros(self.hidden, device=x.device)\n",
    ),
    (
        "gradient_cut_added",
        "graph.detached",
        " def forward(self, x, y):\n     out = self.net(x)\n-    reg = torch.mean(self.aux(out).abs())\n"
        "+    reg = torch.mean(self.aux(out).abs()).item()\n"
        "     loss = F.mse_loss(out, y) + 0.1 * reg\n     return out, loss\n",
        " def train_epoch(model, loader):\n     for x, y in loader:\n         loss = crit(model(x), y)\n"
        "         loss.backward()\n-        total += loss\n+        total += loss.item()\n"
        "     return total / len(loader)\n",
    ),
    (
        "gradient_cut_added",
        "graph.detached",
        "-        terms.append(torch.cosine_similarity(a, b, dim=1).mean())\n"
        "+        terms.append(torch.cosine_similarity(a, b, dim=1).mean().item())\n"
        "     extra = torch.tensor(terms).mean()\n     (task + extra).backward()\n",
        " def evaluate(model, x, y):\n-    val = crit(model(x), y)\n"
        "+    val = crit(model(x), y).item()\n     return val\n",
    ),
    (
        "lr_raised",
        "optim.lr_too_high",
        " batch_size = 16\n-lr = 0.001\n+lr = 0.02\n optimizer = optim.SGD(net.parameters(), lr=lr, momentum=0.9)\n",
        " batch_size = 16\n-lr = 0.001\n+lr = 0.0012\n optimizer = optim.SGD(net.parameters(), lr=lr, momentum=0.9)\n",
    ),
    (
        "lr_lowered",
        "optim.lr_too_low",
        "-    opt = torch.optim.Adam(model.parameters(), lr=3e-4)\n"
        "+    opt = torch.optim.Adam(model.parameters(), lr=1e-6)\n",
        "-    opt = torch.optim.Adam(model.parameters(), lr=3e-4)\n"
        "+    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)\n",
    ),
    (
        "average_weight_dropped",
        "metric.wrong",
        "     for x, y in val_loader:\n-        meter.update(accuracy(model(x), y), n=y.size(0))\n"
        "+        meter.update(accuracy(model(x), y))\n",
        "     for x, y in val_loader:\n-        meter.update(accuracy(model(x), y), n=y.size(0))\n"
        "+        meter.update(accuracy(model(x), y).item(), n=len(y))\n",
    ),
    (
        "average_weight_dropped",
        "metric.wrong",
        "     def update(self, val, n=1):\n-        self.sum += val * n\n-        self.count += n\n"
        "+        self.sum += val\n+        self.count += 1\n",
        "     def update(self, val, n=1):\n-        self.sum += val * n\n+        self.sum += float(val) * n\n",
    ),
    (
        "gradient_cut_added",
        "graph.detached",
        " def policy_loss(self, advs):\n-    logp = torch.stack(self.log_probs)\n"
        "+    logp = torch.tensor(self.log_probs, device=advs.device)\n     loss = -(logp * advs).mean()\n"
        "     return loss\n",
        " def policy_loss(self, advs):\n-    logp = torch.stack(self.log_probs)\n"
        "+    logp = torch.stack(self.log_probs).to(advs.device)\n     loss = -(logp * advs).mean()\n"
        "     return loss\n",
    ),
    (
        "fit_moved_before_split",
        "data.leakage",
        "-    train_raw, test_raw = divide(raw)\n-    scaler.fit(train_raw)\n+    scaler.fit(raw)\n"
        "+    data = scaler.transform(raw)\n+    train, test = divide(data)\n",
        "-    scaler = StandardScaler()\n+    scaler = MinMaxScaler()\n     train_raw, test_raw = divide(raw)\n"
        "     scaler.fit(train_raw)\n",
    ),
    (
        "one_side_reordered",
        "data.label_misalignment",
        " def evaluate(model, x_test, y_test):\n+    order = torch.randperm(len(x_test))\n+    x_test = x_test[order]\n"
        "     model.eval()\n",
        " def evaluate(model, x_test, y_test):\n+    order = torch.randperm(len(x_test))\n+    x_test = x_test[order]\n"
        "+    y_test = y_test[order]\n",
    ),
    (
        "train_mode_in_eval",
        "mode.train_at_eval",
        "     model.eval()\n     with torch.no_grad():\n         for x, y in val_loader:\n"
        "+            model.train()\n             out = model(x)\n",
        "     model.eval()\n     with torch.no_grad():\n         for x, y in val_loader:\n"
        "             out = model(x)\n+    model.train()\n     for x, y in train_loader:\n",
    ),
    (
        "scheduler_pace_changed",
        "optim.scheduler_misstep",
        "-    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.95)\n"
        "+    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=epochs * len(loader))\n",
        "-    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.95)\n"
        "+    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-2, total_steps=epochs * len(loader))\n"
        "     for x, y in loader:\n         step(x, y)\n+        sched.step()\n",
    ),
    (
        "softmax_added_to_output",
        "loss.double_activation",
        "     out, _ = self.rnn(x)\n-    return self.fc(out)\n+    return torch.sigmoid(self.fc(out))\n",
        "     out, _ = self.rnn(x)\n-    return torch.sigmoid(self.fc(out))\n"
        "+    return torch.sigmoid(self.fc(self.drop(out)))\n",
    ),
    (
        "label_shift_changed",
        "data.label_misalignment",
        '-    label = df["ret"].shift(-1)\n+    label = df["ret"].shift(1)\n',
        '-    label = df["ret"].shift(-1)\n+    label = df["ret"].shift(-1).fillna(0)\n',
    ),
    (
        "zero_grad_hoisted",
        "optim.missing_zero_grad",
        "     model.train()\n+    opt.zero_grad()\n     for x, y in loader:\n-        opt.zero_grad()\n"
        "         loss = crit(model(x), y)\n",
        "     model.train()\n     for x, y in loader:\n-        opt.zero_grad()\n"
        "+        opt.zero_grad(set_to_none=True)\n         loss = crit(model(x), y)\n",
    ),
    (
        "param_group_dropped",
        "optim.params_not_updated",
        "     head = {'params': model.head.parameters(), 'lr': 1e-3}\n-    groups.append(head)\n"
        "     opt = torch.optim.AdamW(groups)\n",
        "     head = {'params': model.head.parameters(), 'lr': 1e-3}\n-    groups.append(head)\n"
        "+    groups.append(head)  # the head learns faster\n     opt = torch.optim.AdamW(groups)\n",
    ),
    (
        "lr_raised",
        "optim.lr_too_high",
        '     "hidden": 256,\n-    "lr": 0.0003,\n+    "lr": 0.3,\n     "epochs": 10,\n',
        '     "hidden": 256,\n-    "lr": 0.0003,\n+    "lr": 0.0005,\n     "epochs": 10,\n',
    ),
    (
        "eval_helper_added_without_eval",
        "mode.train_at_eval",
        "+def evaluate(net, loader):\n+    with torch.no_grad():\n+        return [net(x).argmax(1) for x in loader]\n"
        "+\n ",
        "+def evaluate(net, loader):\n+    net.eval()\n+    with torch.no_grad():\n"
        "+        return [net(x).argmax(1) for x in loader]\n+\n ",
    ),
    (
        "module_container_dropped",
        "optim.params_not_updated",
        "-        self.heads = nn.ModuleList([nn.Linear(d, 1) for _ in range(4)])\n"
        "+        self.heads = [nn.Linear(d, 1) for _ in range(4)]\n",
        "-        self.heads = nn.ModuleList([nn.Linear(d, 1) for _ in range(4)])\n"
        "+        self.heads = nn.ModuleList([nn.Linear(d, 2) for _ in range(4)])\n",
    ),
    (
        "parameter_unwrapped",
        "optim.params_not_updated",
        "-        self.keys = nn.Parameter(torch.randn(L, c))\n"
        "+        self.keys = torch.randn(L, c).to('cuda')\n",
        "-        self.keys = nn.Parameter(torch.randn(L, c))\n"
        "+        self.keys = nn.Parameter(torch.randn(L, c).to('cuda'))\n",
    ),
    (
        "validation_call_in_train_loop",
        "mode.eval_at_train",
        "     for i, (x, y) in enumerate(loader):\n         opt.zero_grad()\n         crit(model(x), y).backward()\n"
        "         opt.step()\n+        if i % 100 == 0:\n+            validate(model, val_loader)\n",
        "     for i, (x, y) in enumerate(loader):\n         model.train()\n         opt.zero_grad()\n"
        "         crit(model(x), y).backward()\n         opt.step()\n+        if i % 100 == 0:\n"
        "+            validate(model, val_loader)\n",
    ),
    (
        "zero_grad_removed",
        "optim.missing_zero_grad",
        "     w.data.sub_(lr * w.grad)\n-    w.grad.zero_()\n     print(loss.item())\n",
        "     w.data.sub_(lr * w.grad)\n-    w.grad.zero_()\n+    w.grad = None\n     print(loss.item())\n",
    ),
    (
        "accumulation_added_unscaled",
        "optim.grad_accum_unscaled",
        "     for i, (x, y) in enumerate(loader):\n         loss = crit(model(x), y)\n         loss.backward()\n"
        "-        opt.step()\n+        if (i + 1) % accum_steps == 0:\n"
        "+            opt.step()\n+            opt.zero_grad()\n",
        "     for i, (x, y) in enumerate(loader):\n-        loss = crit(model(x), y)\n"
        "+        loss = crit(model(x), y) / accum_steps\n         loss.backward()\n"
        "-        opt.step()\n+        if (i + 1) % accum_steps == 0:\n"
        "+            opt.step()\n+            opt.zero_grad()\n",
    ),
    (
        "optimizer_params_narrowed",
        "optim.params_not_updated",
        "-    opt = Adam(list(model.parameters()) + list(head.parameters()), lr=1e-4)\n"
        "+    opt = Adam(model.parameters(), lr=1e-4)\n",
        "-    opt = Adam(list(model.parameters()) + list(head.parameters()), lr=1e-4)\n"
        "+    opt = Adam(list(model.parameters()) + list(head.parameters()), lr=3e-4)\n",
    ),
    (
        "target_window_moved",
        "data.label_misalignment",
        "-        y = series[t + 1:t + 1 + horizon]\n+        y = series[t - horizon + 1:t + 1]\n",
        "-        y = series[t + 1:t + 1 + horizon]\n+        y = series[t + 1 : t + 1 + horizon]\n",
    ),
    (
        "fit_moved_before_split",
        "data.leakage",
        "+    mu = data.mean(axis=0)\n+    data = data - mu\n     train, test = data[:train_end], data[train_end:]\n",
        "     train, test = data[:train_end], data[train_end:]\n+    mu = train.mean(axis=0)\n",
    ),
    (
        "fit_moved_before_split",
        "data.leakage",
        "+    sd = data.std(axis=(0, 1))\n+    data = data / sd\n     tr_idx, te_idx = split_by_year(len(data))\n",
        "     tr_idx, te_idx = split_by_year(len(data))\n+    sd = data[tr_idx].std(axis=(0, 1))\n",
    ),
    (
        "eval_loader_shuffled",
        "metric.wrong",
        "-val_dl = make_loader(val_df, batch_size=64, shuffle=False)\n"
        "+val_dl = make_loader(val_df, batch_size=64)\n",
        "-val_dl = make_loader(val_df, batch_size=64, shuffle=False)\n"
        "+val_dl = make_loader(val_df, batch_size=128, shuffle=False)\n",
    ),
    (
        "eval_loader_shuffled",
        "metric.wrong",
        "+test_loader = DataLoader(test_set, batch_size=32, shuffle=True)\n",
        "+train_loader = DataLoader(train_set, batch_size=32, shuffle=True)\n",
    ),
    (
        "validation_set_from_test",
        "data.leakage",
        "-val_set = Passages(data[name.replace('train', 'dev')])\n+val_set = Passages(data[opt.test_name])\n",
        "-val_set = Passages(data[name.replace('train', 'dev')])\n+val_set = Passages(data[opt.dev_name])\n",
    ),
    (
        "average_weight_dropped",
        "metric.wrong",
        "-      top1Sum = top1Sum + top1*batchSize\n+      top1Sum = top1Sum + top1\n",
        "-      top1Sum = top1Sum + top1*batchSize\n+      top1Sum = top1Sum + top1 * batchSize\n",
    ),
    (
        "reduction_axis_dropped",
        "loss.wrong_dim",
        "-    norm = K.sum(masked, axis=-1, keepdims=True)\n+    norm = K.sum(masked)\n",
        "-    norm = K.sum(masked, axis=-1, keepdims=True)\n+    norm = K.sum(masked, axis=-1, keepdims=True) + eps\n",
    ),
    (
        "reduction_axis_dropped",
        "loss.wrong_dim",
        "-    p = scores / scores.sum(-1, keepdim=True)\n+    p = scores / scores.sum()\n",
        "-    loss = per_token.sum(-1).mean()\n+    loss = per_token.mean()\n",
    ),
    (
        "loss_selection_removed",
        "loss.padding_counted",
        "-        rtd_loss = loss_fct(scores.view(-1, 2)[active], labels.view(-1)[active])\n"
        "+        rtd_loss = loss_fct(scores.view(-1, 2), labels.view(-1))\n",
        "-        rtd_loss = loss_fct(scores.view(-1, 2)[active], labels.view(-1)[active])\n"
        "+        rtd_loss = loss_fct(scores.reshape(-1, 2)[active], labels.reshape(-1)[active])\n",
    ),
    (
        "train_mode_restore_removed",
        "mode.eval_at_train",
        "         hook.evaluate(runner)\n-        runner.model.train(was_training)\n         self.done = True\n",
        "         hook.evaluate(runner)\n-        runner.model.train(was_training)\n"
        "+        runner.model.train(mode)\n",
    ),
    (
        "output_rectified",
        "init.dead_units",
        "-        self.head = nn.Linear(512, num_classes)\n"
        "+        self.head = nn.Sequential(nn.Linear(512, num_classes), nn.ReLU())\n",
        "-        self.head = nn.Linear(512, num_classes)\n"
        "+        self.head = nn.Sequential(nn.Linear(512, 256), nn.ReLU())\n",
    ),
]


def ids(text: str) -> set[str]:
    return {c.cue_id for c in scan_diff(diffmod.parse(HEAD + text))}


@pytest.mark.parametrize("cue,cause,bad,good", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_edit_cue_fires_on_bug_and_not_on_twin(cue, cause, bad, good):
    assert cue in ids(bad)
    assert cue not in ids(good)


@pytest.mark.parametrize("cue,cause,bad,good", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_edit_cue_moves_its_cause(cue, cause, bad, good):
    cat = catalog.load()
    assert cat.get(cause).code_cues.get(cue, 0) > 0, f"{cause} gives {cue} no weight"
    ledger = Ledger(cat)
    add_cues(ledger, [c for c in scan_diff(diffmod.parse(HEAD + bad)) if c.cue_id == cue])
    assert ledger.total(cause) > 0


def test_deleted_line_cues_point_at_the_deleted_line():
    (c,) = [c for c in scan_diff(diffmod.parse(HEAD + CASES[2][2])) if c.cue_id == "eval_call_removed"]
    assert c.code == "model.eval()" and c.line == 2 and "removes" in c.detail


def test_eval_mode_kept_in_the_changed_code_weighs_against_train_mode_evaluation():
    text = " def evaluate(model, x):\n+    x = x.float()\n     model.eval()\n     return model(x)\n"
    assert "eval_mode_kept" in ids(text)
    assert "eval_mode_kept" not in ids(" def evaluate(model, x):\n-    model.eval()\n     return model(x)\n")
    assert catalog.load().get("mode.train_at_eval").code_cues["eval_mode_kept"] < 0
    switched_back = " model.eval()\n with torch.no_grad():\n     for x in val_loader:\n+        model.train()\n"
    assert "eval_mode_kept" not in ids(switched_back)  # a train() added after it undoes it


def test_zero_grad_moved_under_an_accumulation_gate_is_not_hoisted():
    """Clearing before the loop and again every N steps inside it is gradient accumulation, not a hoist."""
    text = (
        "     model.train()\n-    for i, (x, y) in enumerate(loader):\n-        opt.zero_grad()\n"
        "-        crit(model(x), y).backward()\n+    opt.zero_grad()\n+    for i, (x, y) in enumerate(loader):\n"
        "+        (crit(model(x), y) / 4).backward()\n+        if (i + 1) % 4 == 0:\n+            opt.step()\n"
        "+            opt.zero_grad()\n"
    )
    assert "zero_grad_hoisted" not in ids(text)
    assert "accumulation_added_unscaled" not in ids(text)  # the loss is divided


def test_a_defect_in_the_diff_weighs_against_not_a_bug():
    cat = catalog.load()
    ledger = Ledger(cat)
    raised = next(c for c in CASES if c[0] == "lr_raised")
    add_cues(ledger, scan_diff(diffmod.parse(HEAD + raised[2])))  # the learning rate raised 1000x
    not_bug = [e.id for e in cat.entries if e.kind == "not_bug"]
    assert not_bug and all(ledger.total(n, "code") < 0 for n in not_bug)
    quiet = Ledger(cat)
    add_cues(quiet, scan_diff(diffmod.parse(HEAD + raised[3])))  # a small change: no defect's cue
    assert all(quiet.total(n, "code") == 0 for n in not_bug)


def test_a_loop_replaced_by_a_framework_step_is_not_zero_grad_hoisted():
    """A hand-written loop rewritten as a Lightning training_step: zero_grad() leaves the deleted loop for a
    method the framework calls per batch, so nothing is hoisted."""
    text = (
        "--- a/train.py\n+++ b/train.py\n@@ -1,6 +1,5 @@\n"
        "-for batch in loader:\n-    opt.zero_grad()\n-    loss(batch).backward()\n-    opt.step()\n"
        "+def training_step(self, batch, batch_idx):\n+    opt.zero_grad()\n+    self.manual_backward(loss(batch))\n"
        "+    opt.step()\n"
    )
    assert "zero_grad_hoisted" not in ids(text)
