import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_h_captcha_predict_dropout_active_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    torch.manual_seed(0)
    t = _load().make_target()
    model, predict, metric = t["model"], t["eval_fn"], t["metric_fn"]
    opt = t["optimizer"](model.parameters())
    x, y = t["train_data"]
    model.train()
    for _ in range(4):
        for i in range(0, len(x), 32):
            opt.zero_grad()
            t["loss_fn"](model(x[i : i + 32]), y[i : i + 32]).backward()
            opt.step()
    vx, vy = t["val_data"]
    runs = [predict(model, (vx, vy)) for _ in range(3)]
    accs = [metric(r, vy) for r in runs]
    flips = (runs[0].argmax(1) != runs[1].argmax(1)).float().mean().item()
    model.eval()
    acc_eval = metric(predict(model, (vx, vy)), vy)
    assert flips > 0.02 and max(accs) < acc_eval - 0.03, (flips, accs, acc_eval)
    return (f"predict() on the same images twice: {flips:.0%} of predicted classes differ; test accuracy "
            f"{min(accs):.2f}-{max(accs):.2f} across repeats vs {acc_eval:.2f} with the model in eval mode")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
