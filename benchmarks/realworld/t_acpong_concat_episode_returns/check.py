"""Self-contained: TD targets on concatenated episodes of a tiny 'Pong-like' chain vs per-episode masked targets."""

import torch


def _episodes(n, length, seed):
    g = torch.Generator().manual_seed(seed)
    eps = []
    for _ in range(n):
        T = int(torch.randint(length // 2, length, (1,), generator=g))
        r = torch.zeros(T)
        r[-1] = -1.0 if torch.rand(1, generator=g) < 0.8 else 1.0  # mostly losing the point at the end
        done = torch.zeros(T)
        done[-1] = 1.0
        eps.append((r, done))
    return eps


def _check() -> str:
    torch.manual_seed(0)
    gamma = 0.99
    eps = _episodes(40, 20, 1)
    # a critic that has learned the true returns V(s_t) = sum gamma^k r (per episode)
    def true_values(r):
        v = torch.zeros_like(r)
        run = 0.0
        for t in reversed(range(len(r))):
            run = r[t] + gamma * run
            v[t] = run
        return v

    vals = [true_values(r) for r, _ in eps]
    r_all = torch.cat([r for r, _ in eps])
    d_all = torch.cat([d for _, d in eps])
    v_all = torch.cat(vals)
    v_next = torch.cat([v_all[1:], torch.zeros(1)])  # next state in the long array = next episode's first state
    tgt_bug = r_all + gamma * v_next
    tgt_ok = r_all + gamma * v_next * (1.0 - d_all)
    term = d_all.bool()
    err_bug = (tgt_bug[term] - v_all[term]).abs().mean().item()
    err_ok = (tgt_ok[term] - v_all[term]).abs().mean().item()
    adv_bug = tgt_bug - v_all
    # terminal steps that lost the point: advantage should be 0 with a perfect critic, buggy version adds V(reset)
    lost = term & (r_all < 0)
    pos_frac = (adv_bug[lost] > 0.05).float().mean().item()
    assert err_ok < 1e-6 and err_bug > 0.2, (err_ok, err_bug)
    assert pos_frac > 0.1 or (adv_bug[lost].abs() > 0.2).float().mean().item() > 0.5, pos_frac
    return (
        f"concatenated episodes: TD target error at terminal steps {err_bug:.3f} with a perfect critic "
        f"(masked per episode: {err_ok:.1e}); {pos_frac:.0%} of point-losing final moves get positive advantage"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
