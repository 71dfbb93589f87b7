"""Token-level critic for RL fine-tuning: values per response token, GAE advantages, masked value loss."""
import torch
import torch.nn as nn

GAMMA = 1.0
LAM = 0.95


class TokenCritic(nn.Module):
    def __init__(self, feat=12, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(feat, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, h):                       # h: (B, T, feat) hidden states of the response tokens
        return self.net(h).squeeze(-1)          # (B, T)


def compute_gae(rewards, values, response_mask, gamma=GAMMA, lam=LAM):
    """rewards, values, response_mask: (B, T). Returns advantages and returns, zeroed on padding."""
    B, T = rewards.shape
    advantages = torch.zeros_like(rewards)
    last_gae = torch.zeros(B)
    for t in reversed(range(T)):
        next_value = values[:, t + 1] if t + 1 < T else torch.zeros(B)
        delta = rewards[:, t] + gamma * next_value - values[:, t]
        last_gae = delta + gamma * lam * last_gae
        advantages[:, t] = last_gae
    advantages = advantages * response_mask
    returns = (advantages + values) * response_mask
    return advantages, returns


def loss_fn(values, targets):
    rewards, mask = targets
    _, returns = compute_gae(rewards, values.detach(), mask)
    return (((values - returns) ** 2) * mask).sum() / mask.sum()


def make_target():
    torch.manual_seed(0)
    B, T = 8, 10
    h = torch.randn(B, T, 12)
    lengths = torch.randint(4, T, (B,))
    mask = (torch.arange(T)[None, :] < lengths[:, None]).float()
    rewards = torch.zeros(B, T)
    rewards[torch.arange(B), lengths - 1] = torch.randint(0, 2, (B,)).float()   # sequence-level reward on last token
    return {
        "model": TokenCritic(),
        "batch": (h, (rewards, mask)),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
    }
