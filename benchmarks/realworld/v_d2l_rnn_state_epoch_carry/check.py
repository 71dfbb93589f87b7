"""Self-contained: char RNN trained with consecutive (adjacent) sampling. With the state initialised once before
the epoch loop (the diff), every epoch after the first starts from the hidden state left at the end of the corpus,
so the first minibatch of the epoch sees a context from the text's end."""
import torch
from torch import nn
import torch.nn.functional as F


def _corpus():
    g = torch.Generator().manual_seed(0)
    # text with a distinctive ending: the last chunk is a long run of one "character"
    body = torch.randint(0, 20, (900,), generator=g)
    for i in range(2, len(body)):
        if i % 3 == 0:
            body[i] = (body[i - 1] + body[i - 2]) % 20   # some learnable structure
    tail = torch.full((100,), 27)
    return torch.cat([body, tail])


class CharRNN(nn.Module):
    def __init__(self, v=28, h=64):
        super().__init__()
        self.emb = nn.Embedding(v, 16)
        self.rnn = nn.RNN(16, h, batch_first=True)
        self.out = nn.Linear(h, v)

    def forward(self, x, state):
        y, state = self.rnn(self.emb(x), state)
        return self.out(y), state


def _consecutive(corpus, batch_size=4, steps=25):
    n = len(corpus) // batch_size
    data = corpus[: n * batch_size].view(batch_size, n)
    for i in range(0, n - 1 - steps + 1, steps):
        yield data[:, i:i + steps], data[:, i + 1:i + 1 + steps]


def _train(reset_each_epoch, epochs=3):
    torch.manual_seed(0)
    model = CharRNN()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    corpus = _corpus()
    first = []
    state = None
    for epoch in range(epochs):
        if reset_each_epoch:
            state = None
        for j, (x, y) in enumerate(_consecutive(corpus)):
            if state is not None:
                state = state.detach()
            if j == 0:
                first.append(0.0 if state is None else state.abs().mean().item())
            logits, state = model(x, state)
            loss = F.cross_entropy(logits.flatten(0, 1), y.flatten())
            opt.zero_grad()
            loss.backward()
            opt.step()
    return first


def _check() -> str:
    buggy = _train(False)
    fixed = _train(True)
    assert buggy[0] == 0.0 and min(buggy[1:]) > 0.05, buggy
    assert max(fixed) == 0.0, fixed
    return ("mean |h| entering the first minibatch of epochs 1..3: "
            + "/".join(f"{v:.3f}" for v in buggy) + " with state set once before the epoch loop vs "
            + "/".join(f"{v:.3f}" for v in fixed) + " when reset per epoch")


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
