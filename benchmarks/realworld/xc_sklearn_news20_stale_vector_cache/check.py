import importlib.util
import os
import tempfile

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xc_sklearn_news20_stale_vector_cache_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _fit_and_score(t):
    model, loss_fn = t["model"], t["loss_fn"]
    opt = t["optimizer"](model.parameters())
    X, y = t["train_data"]
    for _ in range(150):
        opt.zero_grad()
        loss_fn(model(X), y).backward()
        opt.step()
    with torch.no_grad():
        train_acc = t["metric_fn"](model(X), y)
        Xt, yt = t["val_data"]
        test_acc = t["metric_fn"](model(Xt), yt)
    return train_acc, test_acc


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    train_acc, test_acc = _fit_and_score(t)
    # same code, but an empty data home so the fetcher vectorizes from scratch
    torch.manual_seed(0)
    X_train, y_train, X_test, y_test = mod.fetch_vectorized(tempfile.mkdtemp(prefix="news_fresh_"))
    fresh = dict(t, model=mod.BowClassifier(), train_data=(X_train, y_train), val_data=(X_test, y_test))
    _, fresh_test_acc = _fit_and_score(fresh)
    assert test_acc < 0.45, test_acc                 # 4 groups: chance is ~0.25
    assert fresh_test_acc > 0.9, fresh_test_acc
    return (f"with the data home as found: train acc {train_acc:.2f}, test acc {test_acc:.2f}; "
            f"after rebuilding the vectorized cache: test acc {fresh_test_acc:.2f}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
