"""A small GPT written the way popular minimal GPTs are: the MLP reached through a lambda attribute
(`self.mlpf`), weight tying between the token embedding and the head, a registered causal-mask
buffer, `configure_optimizers` on the model, a train step with gradient clipping. Our own code
reproducing those patterns (no third-party source). Functions other than make_target inject bugs."""

import math

import torch
from torch import nn
from torch.nn import functional as F

V, T, C, H = 64, 16, 32, 2


class Attention(nn.Module):
    def __init__(self, mask: bool = True, reshape_heads: bool = False, scale: bool = True) -> None:
        super().__init__()
        self.c_attn = nn.Linear(C, 3 * C)
        self.c_proj = nn.Linear(C, C)
        self.drop = nn.Dropout(0.1)
        self.register_buffer("bias", torch.tril(torch.ones(T, T)).view(1, 1, T, T))
        self.mask, self.reshape_heads, self.scale = mask, reshape_heads, scale

    def _heads(self, x: torch.Tensor) -> torch.Tensor:
        B, L, _ = x.shape
        if self.reshape_heads:
            return x.reshape(B, H, L, C // H)  # BUG: heads split by reshape, positions scrambled
        return x.view(B, L, H, C // H).transpose(1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, L, _ = x.shape
        q, k, v = (self._heads(t) for t in self.c_attn(x).split(C, dim=2))
        att = q @ k.transpose(-2, -1)  # (B, H, L, L)
        if self.scale:
            att = att / math.sqrt(C // H)  # without it: BUG, scores grow with the head size
        if self.mask:
            att = att.masked_fill(self.bias[:, :, :L, :L] == 0, float("-inf"))
        att = self.drop(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(B, L, C)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, **kw: bool) -> None:
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(C), nn.LayerNorm(C)
        self.attn = Attention(**kw)
        self.mlp = nn.ModuleDict(
            dict(c_fc=nn.Linear(C, 4 * C), c_proj=nn.Linear(4 * C, C), act=nn.GELU(), dropout=nn.Dropout(0.1))
        )
        m = self.mlp
        self.mlpf = lambda x: m.dropout(m.c_proj(m.act(m.c_fc(x))))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.ln_1(x))
        return x + self.mlpf(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, **kw: bool) -> None:
        super().__init__()
        self.transformer = nn.ModuleDict(
            dict(
                wte=nn.Embedding(V, C),
                wpe=nn.Embedding(T, C),
                drop=nn.Dropout(0.1),
                h=nn.ModuleList([Block(**kw) for _ in range(2)]),
                ln_f=nn.LayerNorm(C),
            )
        )
        self.lm_head = nn.Linear(C, V, bias=False)
        self.transformer.wte.weight = self.lm_head.weight  # weight tying

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(idx.shape[1], device=idx.device)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        return self.lm_head(self.transformer.ln_f(x))

    def configure_optimizers(self, weight_decay: float, lr: float) -> torch.optim.Optimizer:
        decay = [p for p in self.parameters() if p.dim() >= 2]
        no_decay = [p for p in self.parameters() if p.dim() < 2]
        groups = [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay, "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=lr)


def lm_loss(logits: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return F.cross_entropy(logits.reshape(-1, V), y.reshape(-1))


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad(set_to_none=True)
    loss = loss_fn(model(x), y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return loss.detach()


def train_step_no_zero_grad(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    loss = loss_fn(model(x), y)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    return loss.detach()


def evaluate(model, batch):
    x, _ = batch
    model.eval()
    with torch.no_grad():
        return model(x)


def evaluate_no_eval(model, batch):
    x, _ = batch
    with torch.no_grad():
        return model(x)


def _target(**kw):
    torch.manual_seed(0)
    data = torch.randint(0, V, (8, T + 1))
    return {
        "model": GPT(**{k: v for k, v in kw.items() if k in ("mask", "reshape_heads", "scale")}),
        "batch": (data[:, :-1], data[:, 1:]),
        "loss_fn": lm_loss,
        "causal": True,
        "optimizer": lambda model: model.configure_optimizers(0.1, 1e-3),
        "train_step": kw.get("train_step", train_step),
        "eval_fn": kw.get("eval_fn", evaluate),
    }


def make_target():
    return _target()


def make_no_causal_mask():
    return _target(mask=False)


def make_heads_reshape():
    return _target(reshape_heads=True)


def make_no_attention_scale():
    return _target(scale=False)


def make_no_zero_grad():
    return _target(train_step=train_step_no_zero_grad)


def make_eval_no_eval_mode():
    return _target(eval_fn=evaluate_no_eval)
