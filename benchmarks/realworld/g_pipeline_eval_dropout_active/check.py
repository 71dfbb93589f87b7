import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_g_pipeline_eval_dropout_active_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    torch.manual_seed(0)
    t = _load().make_target()
    model = t["model"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    model.train()
    for _ in range(5):
        for i in range(0, len(x), 64):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 64]), y[i : i + 64]).backward()
            opt.step()
    vx, vy = t["val_data"]
    runs = [t["metric_fn"](t["eval_fn"](model, vx), vy) for _ in range(3)]  # as the pipeline evaluates
    model.eval()
    clean = t["metric_fn"](t["eval_fn"](model, vx), vy)
    assert max(runs) - min(runs) > 0.003 and clean > max(runs) + 0.02, (runs, clean)
    return (f"pipeline evaluation of the same trained model: {', '.join(f'{r:.3f}' for r in runs)} on three calls; "
            f"{clean:.3f} with dropout off")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
