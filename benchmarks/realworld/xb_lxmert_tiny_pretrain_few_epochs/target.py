"""Tiny cross-modality pre-training run: masked language modelling over text tokens that
attend to object features, on a deliberately tiny split (the '--tiny' sanity run).

Optimiser and schedule follow the usual BERT-style pre-training recipe (AdamW, linear
warm-up then decay) and the run is 20 epochs long.
"""
import torch
import torch.nn as nn

VOCAB, T, N_OBJ, F_OBJ, D = 30, 8, 4, 16, 48
MASK_ID = 1
EPOCHS = 20
BATCH = 8
N_TINY = 16


class TinyCrossModal(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D)
        self.pos = nn.Parameter(torch.randn(T, D) * 0.02)
        self.obj = nn.Linear(F_OBJ, D)
        layer = nn.TransformerEncoderLayer(D, nhead=4, dim_feedforward=64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=2)
        self.lm_head = nn.Linear(D, VOCAB)

    def forward(self, input_ids, feats):
        x = torch.cat([self.tok(input_ids) + self.pos, self.obj(feats)], dim=1)
        h = self.encoder(x)
        return self.lm_head(h[:, :T])


OBJ_CODES = torch.randn(VOCAB, F_OBJ, generator=torch.Generator().manual_seed(123))


def tiny_split(seed=0):
    """Captions whose first N_OBJ words name the detected objects, in box order."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(2, VOCAB, (N_TINY, T), generator=g)
    feats = OBJ_CODES[ids[:, :N_OBJ]] + 0.1 * torch.randn(N_TINY, N_OBJ, F_OBJ, generator=g)
    return ids, feats


def mask_tokens(ids, seed):
    g = torch.Generator().manual_seed(seed)
    m = torch.rand(ids.shape, generator=g) < 0.15
    m[:, 0] |= ~m.any(1)
    labels = torch.where(m, ids, torch.full_like(ids, -100))
    inputs = torch.where(m, torch.full_like(ids, MASK_ID), ids)
    return inputs, labels


def mlm_loss(logits, labels):
    return nn.functional.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1), ignore_index=-100)


def make_optimizer(params, total_steps):
    opt = torch.optim.AdamW(params, lr=1e-3, weight_decay=0.01)
    warm = max(1, int(0.05 * total_steps))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (total_steps - s) / max(1, total_steps - warm))))
    return opt, sched


def batches(epochs=EPOCHS):
    ids, feats = tiny_split()
    step = 0
    for ep in range(epochs):
        for i in range(0, N_TINY, BATCH):
            inp, lab = mask_tokens(ids[i:i + BATCH], seed=step)
            yield (inp, feats[i:i + BATCH]), lab
            step += 1


def train(model, epochs=EPOCHS):
    total = epochs * (N_TINY // BATCH)
    opt, sched = make_optimizer(model.parameters(), total)
    losses = []
    model.train()
    for (inp, feats), lab in batches(epochs):
        opt.zero_grad()
        loss = mlm_loss(model(inp, feats), lab)
        loss.backward()
        opt.step()
        sched.step()
        losses.append(loss.item())
    return losses


def make_target():
    torch.manual_seed(0)
    ids, feats = tiny_split()
    inp, lab = mask_tokens(ids, seed=0)
    return {
        "model": TinyCrossModal(),
        "batch": ((inp, feats), lab),
        "loss_fn": mlm_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=1e-3, weight_decay=0.01),
        "train_data": list(batches(1)),
    }
