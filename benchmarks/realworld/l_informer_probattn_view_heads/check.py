import torch


def _heads_view(x):
    b, l, h, d = x.shape
    return x.view(b, h, l, -1)


def _heads_transpose(x):
    return x.transpose(2, 1)


def _check() -> str:
    torch.manual_seed(0)
    B, L, H, D = 2, 24, 4, 8
    x = torch.randn(B, L, H, D)
    # per-position mixing: which input positions land in "position 0" of head 0
    qv, qt = _heads_view(x), _heads_transpose(x)
    assert qv.shape == qt.shape
    assert not torch.allclose(qv, qt), "view and transpose agree"
    # under view, "head 0, position 1" holds timestep 0's second head, not timestep 1's first head
    assert torch.allclose(qv[0, 0, 1], x[0, 0, 1]) and not torch.allclose(qv[0, 0, 1], x[0, 1, 0])
    # perturb only the LAST timestep and see which "positions" of the head tensor move
    x2 = x.clone()
    x2[:, -1] += 5.0
    moved_view = (_heads_view(x2) - qv).abs().sum(dim=(0, 3)) > 0  # (H, L)
    moved_tr = (_heads_transpose(x2) - qt).abs().sum(dim=(0, 3)) > 0
    # with transpose only position L-1 moves, in every head
    assert moved_tr[:, -1].all() and not moved_tr[:, :-1].any()
    # with view the change lands in the last head at several "positions" and never at position L-1 of head 0
    pos_hit = sorted(set(moved_view.nonzero()[:, 1].tolist()))
    assert not moved_view[0, -1] and len(pos_hit) >= 2, pos_hit
    heads_untouched = int((~moved_view.any(dim=1)).sum())
    assert heads_untouched == H - 1
    return (
        f"view(B,H,L,-1) on (B,L,H,D): a change at timestep {L-1} lands at head-tensor positions {pos_hit} "
        f"of head {H-1} only ({heads_untouched} heads never see it); transpose keeps it at position {L-1} in every head"
    )


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
