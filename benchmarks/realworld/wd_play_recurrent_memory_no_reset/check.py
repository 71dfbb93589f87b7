import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("wd_play_recurrent_memory_no_reset_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    t = _load().make_target()
    model, play, episode = t["model"], t["eval_fn"], t["batch"]
    first = play(model, episode)          # episode 1
    second = play(model, episode)         # episode 2: identical observations after the env reset
    third = play(model, episode)
    d_first_step = (first[0] - second[0]).abs().max().item()
    d_episode = (first - second).abs().max().item()
    d_23 = (second - third).abs().max().item()
    assert d_first_step > 1e-3, d_first_step
    assert d_episode > 1e-3, d_episode
    return (f"replaying the same episode: first action differs by {d_first_step:.3f} between episode 1 and 2 "
            f"(max over the episode {d_episode:.3f}); episode 2 vs 3: {d_23:.1e}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
