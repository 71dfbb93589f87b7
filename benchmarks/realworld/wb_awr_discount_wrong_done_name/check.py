import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wb_awr_discount_wrong_done_name_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model, loss_fn = t["model"], t["loss_fn"]
    states, targets = t["batch"]
    opt = t["optimizer"](model.parameters())
    for _ in range(60):
        opt.zero_grad()
        loss_fn(model(states), targets).backward()
        opt.step()
    with torch.no_grad():
        v = model(states)
        reward, done = targets
        ret = mod.discount_return(reward, done, v)
    true_start = sum(mod.GAMMA ** k for k in range(mod.EP_LEN))   # 5 rewards of 1, then the episode ends
    v_start = v[0].item()
    last = int(torch.nonzero(done)[0])
    target_at_terminal = ret[last].item()
    assert target_at_terminal > 1.0 + 0.5, target_at_terminal
    assert v_start > 2 * true_start, (v_start, true_start)
    return (f"return target at a terminal step is {target_at_terminal:.2f} (reward there is 1.0); "
            f"after 60 critic steps V(start) = {v_start:.1f} vs true episode return {true_start:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
