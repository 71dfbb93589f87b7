"""Self-contained, no defect: a sparse-reward policy-gradient task (one rewarded action per context, REINFORCE
with a small learning rate). Over the first stretch of training the mean reward sits at the random level; the same
unchanged code, run much longer, learns the task."""

import torch


def _run(episodes, seed=0):
    torch.manual_seed(seed)
    n_ctx, n_act = 16, 16
    logits_net = torch.nn.Sequential(torch.nn.Embedding(n_ctx, 32), torch.nn.Tanh(), torch.nn.Linear(32, n_act))
    opt = torch.optim.SGD(logits_net.parameters(), lr=0.03)
    g = torch.Generator().manual_seed(seed + 1)
    goal = torch.randperm(n_act, generator=g)[:n_ctx]
    rewards = []
    for _ in range(episodes):
        ctx = torch.randint(0, n_ctx, (32,), generator=g)
        dist = torch.distributions.Categorical(logits=logits_net(ctx))
        a = dist.sample()
        r = (a == goal[ctx]).float()
        loss = -(dist.log_prob(a) * (r - r.mean())).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        rewards.append(r.mean().item())
    return rewards


def _check() -> str:
    rew = _run(1500)
    early = sum(rew[:150]) / 150
    late = sum(rew[-150:]) / 150
    chance = 1 / 16
    assert abs(early - chance) < 0.03, early
    assert late > 4 * early and late > 0.3, (early, late)
    return f"mean reward {early:.3f} over the first 150 updates (random {chance:.3f}), {late:.3f} over the last 150 of 1500"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
