import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_dueling_dqn_ignores_done_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _greedy_return(mod, model):
    pos, ret = 0, 0.0
    with torch.no_grad():
        while True:
            a = model(mod.obs(pos).unsqueeze(0)).argmax(1).item()
            ret += 1.0
            if a == mod.FALL or pos + 1 == mod.LENGTH:
                return ret
            pos += 1


def _train(mod, use_done):
    t = mod.make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    s, (a, r, s2, d) = t["batch"]
    for step in range(800):
        q = model(s)
        if use_done:
            with torch.no_grad():
                y = r + mod.GAMMA * (1 - d) * model(s2).max(1).values
            loss = ((q.gather(1, a.unsqueeze(1)).squeeze(1) - y) ** 2).mean()
        else:
            loss = t["loss_fn"](q, (a, r, s2, d))
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        q_fall = model(s[a == mod.FALL])[:, mod.FALL].mean().item()
    return _greedy_return(mod, model), q_fall


def _check() -> str:
    mod = _load()
    ret_bug, qfall_bug = _train(mod, use_done=False)
    ret_fix, qfall_fix = _train(mod, use_done=True)
    assert ret_fix == mod.LENGTH, ret_fix
    assert ret_bug < 0.5 * mod.LENGTH, ret_bug
    assert qfall_bug > 10 * qfall_fix, (qfall_bug, qfall_fix)
    return (
        f"target r + gamma*max Q(s') on terminal steps: Q(s, fall) = {qfall_bug:.1f}, greedy episode return "
        f"{ret_bug:.0f}/{mod.LENGTH}; with the done mask: Q(s, fall) = {qfall_fix:.2f}, return {ret_fix:.0f}"
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
