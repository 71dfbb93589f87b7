"""Self-contained: the reporter's setup. A linear model plateaus at the best linear least-squares error (1/6);
with the X1*X2 feature added an exact fit exists, so the plateau is model capacity, not the training code."""
import torch


def _fit(with_interaction):
    torch.manual_seed(0)
    x = torch.tensor([[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]])
    y = torch.tensor([[-76.5], [-67.0], [-56.5]])
    if with_interaction:
        x = torch.cat([x, x[:, :1] * x[:, 1:]], dim=1)
    model = torch.nn.Linear(x.shape[1], 1)
    crit = torch.nn.MSELoss(reduction="sum")
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss = crit(model(x), y)
    if not with_interaction:
        for _ in range(3000):
            loss = crit(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    # exact least-squares optimum for this feature set
    X = torch.cat([x, torch.ones(3, 1)], dim=1).double()
    sol = torch.linalg.lstsq(X, y.double()).solution
    best = ((X @ sol - y.double()) ** 2).sum().item()
    return loss.item(), best


def _check() -> str:
    lin_loss, lin_best = _fit(False)
    int_loss, int_best = _fit(True)
    assert abs(lin_best - 1 / 6) < 1e-3, lin_best
    assert abs(lin_loss - lin_best) < 0.02, (lin_loss, lin_best)   # training reached the linear optimum
    assert int_best < 1e-6, int_best
    return (f"nn.Linear(2,1) plateaus at sum-MSE {lin_loss:.4f} = best possible linear fit {lin_best:.4f}; "
            f"with the X1*X2 feature an exact fit exists (least-squares error {int_best:.1e})")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
