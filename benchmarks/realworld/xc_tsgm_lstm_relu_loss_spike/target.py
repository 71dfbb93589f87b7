"""Conv + LSTM classifier for multichannel time series (3 channels x 96 steps -> 4 classes).

The recurrent layer is written out by hand so its activation can be configured,
mirroring a Keras-style LSTM(units, activation=...) layer.
"""
import torch
import torch.nn as nn


class ConfigurableLSTM(nn.Module):
    def __init__(self, input_size, hidden_size, activation="relu"):
        super().__init__()
        self.hidden_size = hidden_size
        self.act = {"relu": torch.relu, "tanh": torch.tanh}[activation]
        self.kernel = nn.Linear(input_size, 4 * hidden_size)
        self.recurrent = nn.Linear(hidden_size, 4 * hidden_size, bias=False)
        H = hidden_size
        with torch.no_grad():
            nn.init.xavier_uniform_(self.kernel.weight)
            for k in range(4):
                nn.init.orthogonal_(self.recurrent.weight[k * H:(k + 1) * H])
            self.kernel.bias.zero_()
            self.kernel.bias[H:2 * H] = 1.0          # forget-gate bias 1, as Keras does

    def forward(self, x):                              # x: (B, T, F)
        B, T, _ = x.shape
        h = x.new_zeros(B, self.hidden_size)
        c = x.new_zeros(B, self.hidden_size)
        xw = self.kernel(x)
        for t in range(T):
            i, f, g, o = (xw[:, t] + self.recurrent(h)).chunk(4, dim=1)
            i, f, o = torch.sigmoid(i), torch.sigmoid(f), torch.sigmoid(o)
            c = f * c + i * self.act(g)
            h = o * self.act(c)
        return h


class ConvLSTMClassifier(nn.Module):
    def __init__(self, n_channels=3, n_classes=4, conv_filters=32, lstm_units=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_channels, conv_filters, 3, padding=1), nn.ReLU(),
            nn.Conv1d(conv_filters, conv_filters, 3, padding=1), nn.ReLU(),
        )
        self.lstm = ConfigurableLSTM(conv_filters, lstm_units, activation="relu")
        self.head = nn.Linear(lstm_units, n_classes)

    def forward(self, x):                              # x: (B, T, C)
        z = self.conv(x.transpose(1, 2)).transpose(1, 2)
        return self.head(self.lstm(z))


def make_series(n, T=96, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    t = torch.arange(T).float()
    x = torch.stack([torch.sin(t * (0.05 * (1 + y[:, None])) + k) for k in range(3)], -1) * 3
    x = x + torch.randn(n, T, 3, generator=g)
    return x, y


def make_target():
    torch.manual_seed(0)
    x, y = make_series(32, seed=1)
    return {
        "model": ConvLSTMClassifier(),
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
        "metric_fn": lambda out, labels: (out.argmax(1) == labels).float().mean().item(),
        "train_data": make_series(128, seed=2),
        "val_data": make_series(64, seed=3),
    }
