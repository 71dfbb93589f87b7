"""Session-based next-item GRU with a hidden state kept between calls (session-parallel style); the evaluation loop
only resets it once, before the first batch."""
import torch
import torch.nn as nn

N_ITEMS = 40


class GRU4Rec(nn.Module):
    def __init__(self, n_items=N_ITEMS, d=32):
        super().__init__()
        self.emb = nn.Embedding(n_items, d)
        self.cell = nn.GRUCell(d, d)
        self.out = nn.Linear(d, n_items)
        self.hidden = None

    def reset(self, batch_size):
        self.hidden = torch.zeros(batch_size, self.cell.hidden_size)

    def forward(self, items):
        if self.hidden is None or self.hidden.shape[0] != items.shape[0]:
            self.reset(items.shape[0])
        h = self.cell(self.emb(items), self.hidden)
        self.hidden = h.detach()
        return self.out(h)


def sessions(n=48, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n):
        start = int(torch.randint(0, N_ITEMS, (1,), generator=g))
        L = int(torch.randint(3, 7, (1,), generator=g))
        step = [1, 2, 5][int(torch.randint(0, 3, (1,), generator=g))]  # a per-session pattern the GRU has to remember
        out.append([(start + step * i) % N_ITEMS for i in range(L)])
    return out


def session_parallel_eval(model, sess, batch_size=8):
    """Lanes pick up a new session when theirs ends; hidden state is reset only once, at the start."""
    model.eval()
    hits, total = 0, 0
    model.reset(batch_size)
    lanes = list(range(batch_size))
    pos = [0] * batch_size
    nxt = batch_size
    with torch.no_grad():
        while True:
            active = [i for i in range(batch_size) if lanes[i] is not None]
            if not active:
                break
            inp = torch.tensor([sess[lanes[i]][pos[i]] if lanes[i] is not None else 0 for i in range(batch_size)])
            tgt = [sess[lanes[i]][pos[i] + 1] if lanes[i] is not None else -1 for i in range(batch_size)]
            top = model(inp).topk(5).indices
            for i in active:
                hits += int(tgt[i] in top[i].tolist())
                total += 1
                pos[i] += 1
                if pos[i] + 1 >= len(sess[lanes[i]]):  # session over: give the lane a new one
                    lanes[i] = nxt if nxt < len(sess) else None
                    pos[i] = 0
                    nxt += 1
    return hits / total


def make_target():
    torch.manual_seed(0)
    sess = sessions()
    inp = torch.tensor([s[0] for s in sess[:16]])
    tgt = torch.tensor([s[1] for s in sess[:16]])
    model = GRU4Rec()
    return {
        "model": model,
        "batch": (inp, tgt),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-2),
        "eval_fn": lambda m, x: m(x),
    }
