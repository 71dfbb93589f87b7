import importlib.util
import pathlib

import torch
import torch.nn.functional as F

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_pytorch_rl_dqn_done_ignored_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _train(mod, mask_done):
    torch.manual_seed(0)
    t = mod.make_target()
    model, opt = t["model"], t["optimizer"](t["model"].parameters())
    s, a, r, s2, d = mod.transitions()
    for _ in range(1500):
        q, q_next = model(s, s2)
        with torch.no_grad():
            boot = q_next.max(1).values * ((1 - d) if mask_done else 1.0)
            target = r + mod.GAMMA * boot
        loss = F.mse_loss(q.gather(1, a.view(-1, 1)).squeeze(1), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        q, _ = model(s, s2)
    goal_q = q[(mod.N_CELLS - 1) * 2, 1].item()  # last cell, action right
    return goal_q, q[0].max().item()


def _check() -> str:
    mod = _load()
    goal_bug, start_bug = _train(mod, mask_done=False)
    goal_ok, start_ok = _train(mod, mask_done=True)
    assert goal_bug > 1.8 and start_bug > 1.2, (goal_bug, start_bug)
    assert abs(goal_ok - 1.0) < 0.1 and start_ok < 0.8, (goal_ok, start_ok)
    return (
        f"max return is 1, yet Q(goal step)={goal_bug:.2f}, V(start)={start_bug:.2f} "
        f"(with the done mask: {goal_ok:.2f}, {start_ok:.2f})"
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
