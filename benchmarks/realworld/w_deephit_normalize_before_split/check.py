"""Self-contained: standardising on the whole cohort before the split makes the training matrix depend on the test rows
and hides the shift of the later-enrolled test patients."""
import torch


def _cohort(seed, shift):
    g = torch.Generator().manual_seed(seed)
    train = torch.randn(400, 6, 5, generator=g)                 # patients x visits x covariates
    test = torch.randn(100, 6, 5, generator=g) + shift            # later enrolment: higher lab values
    return train, test


def _scale_full(train, test):
    data = torch.cat([train, test])
    mu, sd = data.mean((0, 1)), data.std((0, 1))
    data = (data - mu) / sd
    return data[:400], data[400:]


def _scale_train_only(train, test):
    mu, sd = train.mean((0, 1)), train.std((0, 1))
    return (train - mu) / sd, (test - mu) / sd


def _check() -> str:
    tr, te = _cohort(0, 1.5)
    tr_full, te_full = _scale_full(tr, te)
    _, te_ok = _scale_train_only(tr, te)
    # regenerate only the test patients: the scaled training matrix moves with them
    _, te2 = _cohort(0, 3.0)
    tr_full2, _ = _scale_full(tr, te2)
    dep = (tr_full - tr_full2).abs().max().item()
    m_full, m_ok = te_full.mean().item(), te_ok.mean().item()
    assert dep > 0.1, dep
    assert m_ok > 1.2 and m_full < m_ok - 0.25, (m_full, m_ok)
    return (f"whole-cohort scaling: training features change by up to {dep:.2f} when only test patients change; "
            f"test covariate mean {m_full:.2f} (train-only statistics show the real shift: {m_ok:.2f})")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
