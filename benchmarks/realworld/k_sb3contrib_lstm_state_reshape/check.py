import importlib.util
import pathlib

import torch

_HERE = pathlib.Path(__file__).resolve().parent


def _load():
    spec = importlib.util.spec_from_file_location("rw_k_sb3contrib_lstm_state_reshape_target", _HERE / "target.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _check() -> str:
    mod = _load()
    t = mod.make_target()
    policy = t["model"]
    (obs_seq, h_start, c_start), (actions, old_logp) = t["batch"]
    with torch.no_grad():
        logp_all, _ = policy(obs_seq, h_start, c_start)
        logp = logp_all.gather(-1, actions[..., None]).squeeze(-1)
        # the same re-evaluation with the stored states' axes swapped instead of reshaped
        out, _ = policy.lstm(obs_seq, (h_start.transpose(0, 1).contiguous(), c_start.transpose(0, 1).contiguous()))
        logp_swap = torch.log_softmax(policy.pi(out), -1).gather(-1, actions[..., None]).squeeze(-1)
    gap_reshape = (logp - old_logp).abs().max().item()
    gap_swap = (logp_swap - old_logp).abs().max().item()
    approx_kl = (old_logp - logp).mean().abs().item()
    ratio = (logp - old_logp).exp()
    clip_frac = ((ratio - 1).abs() > 0.2).float().mean().item()
    assert gap_reshape > 1e-2 and gap_swap < 1e-5, (gap_reshape, gap_swap)
    return (
        f"before any update, re-evaluated log-probs differ from rollout ones by up to {gap_reshape:.3f} "
        f"(|approx_kl| {approx_kl:.4f}, clip fraction {clip_frac:.2f}); with swapped axes the gap is {gap_swap:.1e}"
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
