"""Self-contained: a critic on a 5-step chain (reward 1 on the last step, then terminated, auto-reset to the start).
Bootstrapping the next value on terminated steps adds the start state's value to the final reward, so the learned
values settle far above the true discounted returns and the critic loss against real returns keeps rising."""

import torch

K, GAMMA = 5, 0.9


def _rollout(steps=200):
    s, states, nxt, rew, term = 0, [], [], [], []
    for _ in range(steps):
        done = s == K - 1
        s2 = 0 if done else s + 1  # auto-reset observation after termination
        states.append(s), nxt.append(s2), rew.append(1.0 if done else 0.0), term.append(done)
        s = s2
    return torch.tensor(states), torch.tensor(nxt), torch.tensor(rew), torch.tensor(term)


def _train(mask_terminal):
    torch.manual_seed(0)
    v = torch.zeros(K, requires_grad=True)
    opt = torch.optim.SGD([v], lr=0.5)
    states, nxt, rew, term = _rollout()
    true_v = torch.tensor([GAMMA ** (K - 1 - i) for i in range(K)])
    curve = []
    for _ in range(400):
        with torch.no_grad():
            boot = v[nxt] * (~term).float() if mask_terminal else v[nxt]
            target = rew + GAMMA * boot
        loss = ((v[states] - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        curve.append(((v.detach() - true_v) ** 2).mean().item())
    return v.detach(), true_v, curve


def _check() -> str:
    v, true_v, curve = _train(False)
    v_ok, _, curve_ok = _train(True)
    assert v[0] > 2 * true_v[0] and v[K - 1] > 1.5, (v.tolist(), true_v.tolist())
    assert curve[-1] > curve[50] > curve[10], (curve[10], curve[50], curve[-1])
    assert (v_ok - true_v).abs().max() < 1e-3 and curve_ok[-1] < 1e-6, (v_ok.tolist(), curve_ok[-1])
    return (f"bootstrap on termination: V(start) {v[0]:.3f}, V(last) {v[K - 1]:.3f} vs true {true_v[0]:.3f} / "
            f"{true_v[K - 1]:.3f}, error to true returns {curve[10]:.3f} -> {curve[50]:.3f} -> {curve[-1]:.3f}; "
            f"masked: V(start) {v_ok[0]:.3f}, error {curve_ok[-1]:.1e}")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
