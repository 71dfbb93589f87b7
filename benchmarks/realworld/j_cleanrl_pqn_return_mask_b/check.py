import torch


def _returns(rewards, dones, values, gamma, lam, mask_all):
    T = len(rewards)
    ret = torch.zeros(T)
    for t in reversed(range(T)):
        if t == T - 1:
            ret[t] = rewards[t]
            continue
        nonterm = 1.0 - dones[t + 1]
        nv = values[t + 1]
        if mask_all:
            ret[t] = rewards[t] + gamma * (lam * ret[t + 1] + (1 - lam) * nv) * nonterm
        else:
            ret[t] = rewards[t] + gamma * (lam * ret[t + 1] + (1 - lam) * nv * nonterm)
    return ret


def _check() -> str:
    # episodes of 10 steps, reward 1 per step; dones[t] marks the first step of a new episode
    T, ep, gamma, lam = 200, 10, 0.99, 0.65
    rewards = torch.ones(T)
    dones = torch.zeros(T)
    dones[::ep] = 1.0
    true_max = sum(gamma**k for k in range(ep))
    values = torch.zeros(T)
    for _ in range(30):  # fit the values to their own lambda-returns, as the Q-network does
        ret_bad = _returns(rewards, dones, values, gamma, lam, False)
        values = ret_bad.clone()
    ret_good = _returns(rewards, dones, torch.zeros(T), gamma, lam, True)
    last_step = ret_bad[ep - 1 :: ep][:-1].mean().item()
    assert ret_good.max().item() <= true_max + 1e-4, ret_good.max()
    assert ret_bad.max().item() > 2 * true_max, (ret_bad.max(), true_max)
    assert last_step > 2 * 1.0, last_step
    return (f"10-step episodes (max discounted return {true_max:.2f}): targets reach {ret_bad.max():.2f}; "
            f"last-step target {last_step:.2f} instead of 1.0")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
