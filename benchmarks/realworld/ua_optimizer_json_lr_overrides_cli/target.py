"""Fine-tuning script distilled: the main/CLI config and an optimizer.json-style defaults dict are merged
into the optimizer settings."""
import torch
import torch.nn as nn

# what the user asked for (main config / command line)
MAIN_CONFIG = {"lr": 3e-4, "batch_size": 64, "max_epochs": 30}
# shipped optimizer defaults (optimizer.json)
OPTIMIZER_DEFAULTS = {"optimizer": "adamw", "lr": 1e-6, "betas": (0.9, 0.999), "weight_decay": 0.01}


def resolve_optimizer_config(main_cfg, optim_cfg):
    cfg = dict(main_cfg)
    cfg.update(optim_cfg)  # optimizer file filled in last
    return cfg


def build_optimizer(params):
    cfg = resolve_optimizer_config(MAIN_CONFIG, OPTIMIZER_DEFAULTS)
    return torch.optim.AdamW(params, lr=cfg["lr"], betas=cfg["betas"], weight_decay=cfg["weight_decay"])


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 64), nn.SiLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 16, generator=g)
    y = torch.sin(x[:, 0] * 2) + 0.5 * x[:, 1] * x[:, 2] + 0.1 * torch.randn(n, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    return {
        "model": Net(),
        "batch": make_data(64, 1),
        "loss_fn": nn.MSELoss(),
        "optimizer": build_optimizer,
        "train_data": make_data(1024, 2),
        "val_data": make_data(256, 3),
    }
