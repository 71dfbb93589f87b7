import torch
import torch.nn as nn


def _check() -> str:
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    n, d = 400, 16
    x = torch.randn(n, d, generator=g)
    signal = x[:, 0] + 0.5 * x[:, 1]
    y = ((signal + 1.2 * torch.randn(n, generator=g)) > 0).long()  # noisy labels: only memorisation gets them right
    train_idx = torch.arange(0, 300)
    test_idx = torch.arange(300, 400)
    dup = train_idx[:7]  # seven training cases also listed for testing
    test_all = torch.cat([test_idx, dup])
    model = nn.Sequential(nn.Linear(d, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 2))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(250):
        opt.zero_grad()
        nn.functional.cross_entropy(model(x[train_idx]), y[train_idx]).backward()
        opt.step()
    with torch.no_grad():
        p_true = model(x).softmax(1).gather(1, y[:, None]).squeeze(1)
    score_dup = p_true[dup].mean().item()
    score_clean = p_true[test_idx].mean().item()
    overlap = len(set(train_idx.tolist()) & set(test_all.tolist()))
    assert overlap == 7
    assert score_dup > 0.95 and score_clean < 0.8, (score_dup, score_clean)
    return (
        f"{overlap} test cases also in the training list: mean score {score_dup:.2f} on them vs "
        f"{score_clean:.2f} on the {len(test_idx)} unseen test cases"
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
