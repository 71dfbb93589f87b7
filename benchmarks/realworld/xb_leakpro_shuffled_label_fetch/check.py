import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("xb_leakpro_shuffled_label_fetch_target",
                                                  os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    m = _load()
    model, pop, audit_idx, x_audit, y_audit = m.build_audit(0)
    true_y = pop.targets[audit_idx]
    agree = (y_audit == true_y).float().mean().item()
    with torch.no_grad():
        logits = model(x_audit)
    acc_true = (logits.argmax(-1) == true_y).float().mean().item()
    acc_fetched = (logits.argmax(-1) == y_audit).float().mean().item()
    assert agree < 0.5, agree
    assert acc_true > 0.9, acc_true
    assert acc_fetched < 0.5, acc_fetched
    return (f"labels from get_labels match the audit inputs for {agree:.0%} of points; the target model is "
            f"{acc_true:.0%} accurate on the true labels but {acc_fetched:.0%} on the fetched ones")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
