"""Character-level GRU that classifies surnames by language, trained in mini-batches (course homework style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_LETTERS = 27
N_CATEGORIES = 6
MAX_LEN = 10
BATCH_SIZE = 32


class NameRNN(nn.Module):
    def __init__(self, hidden=48):
        super().__init__()
        self.rnn = nn.GRU(N_LETTERS, hidden)
        self.fc = nn.Linear(hidden, N_CATEGORIES)

    def forward(self, x):                 # x: (MAX_LEN, B, N_LETTERS) one-hot, sequence first
        _, h = self.rnn(x)
        return self.fc(h[-1])             # (B, N_CATEGORIES)


def make_names(n, seed):
    g = torch.Generator().manual_seed(seed)
    cat = torch.randint(0, N_CATEGORIES, (n,), generator=g)
    # each language prefers its own slice of the alphabet
    base = cat.unsqueeze(0) * 4
    letters = (base + torch.randint(0, 7, (MAX_LEN, n), generator=g)) % N_LETTERS
    x = F.one_hot(letters, N_LETTERS).float()
    return x, cat


def accuracy(output, category_tensor):
    top_n, top_i = output.topk(1)
    guess_i = top_i[0].item()
    category_i = category_tensor[0].item()
    return float(guess_i == category_i)


def train_step(model, batch, optimizer, loss_fn):
    x, y = batch
    model.train()
    optimizer.zero_grad()
    out = model(x)
    loss = loss_fn(out, y)
    loss.backward()
    optimizer.step()
    return loss.item()


def make_target():
    torch.manual_seed(0)
    x, y = make_names(BATCH_SIZE, seed=1)
    return {
        "model": NameRNN(),
        "batch": (x, y),
        "batch_axis": 1,
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.5),
        "train_step": train_step,
        "metric_fn": accuracy,
        "train_data": [make_names(BATCH_SIZE, seed=10 + i) for i in range(20)],
        "val_data": [make_names(BATCH_SIZE, seed=500 + i) for i in range(4)],
    }
