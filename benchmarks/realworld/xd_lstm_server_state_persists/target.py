"""Gold-price LSTM regressor that keeps its recurrent state on the module between calls
(the 'stateful' style), so every forward pass starts from whatever the previous call left behind."""
import torch
import torch.nn as nn


class GoldLSTM(nn.Module):
    def __init__(self, n_features=5, hidden=16):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, 1)
        self.state = None

    def forward(self, x):
        if self.state is None or self.state[0].shape[1] != x.shape[0]:
            self.state = (x.new_zeros(1, x.shape[0], self.lstm.hidden_size),
                          x.new_zeros(1, x.shape[0], self.lstm.hidden_size))
        out, (h, c) = self.lstm(x, self.state)
        self.state = (h.detach(), c.detach())   # carried into the next call
        return self.head(out[:, -1]).squeeze(-1)


def make_windows(n, seed):
    g = torch.Generator().manual_seed(seed)
    price = torch.cumsum(torch.randn(n + 5, generator=g) * 0.5, 0)
    feats = torch.stack([price, price.roll(1), price.roll(2), price - price.roll(1),
                         torch.randn(n + 5, generator=g) * 0.1], dim=1)
    x = torch.stack([feats[i:i + 4] for i in range(n)])
    y = price[4:4 + n]
    return (x - x.mean()) / x.std(), (y - y.mean()) / y.std()


def predict(model, x):
    model.eval()
    with torch.no_grad():
        return model(x)


def make_target():
    torch.manual_seed(0)
    x, y = make_windows(256, seed=3)
    return {
        "model": GoldLSTM(),
        "batch": (x[:32], y[:32]),
        "loss_fn": nn.MSELoss(),
        "train_data": torch.utils.data.DataLoader(torch.utils.data.TensorDataset(x, y), batch_size=32, shuffle=True),
        "eval_fn": predict,
    }
