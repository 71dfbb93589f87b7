"""Self-contained: the CNN word tagger and training loop of the diff (SGD with momentum, loss summed over the words of
a sentence), run with the learning rate before (0.01) and after (0.1) the change on a synthetic tagging task."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, N_TAGS, SEQ_LEN, BATCH_SIZE = 200, 9, 20, 20


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 50)
        self.conv = nn.Conv1d(50, 128, 3, padding=1)
        self.hid = nn.Linear(128, 128)
        self.out = nn.Linear(128, N_TAGS)

    def forward(self, words):
        h = F.relu(self.conv(self.emb(words).transpose(1, 2))).transpose(1, 2)
        return self.out(F.relu(self.hid(h)))


def sentences(n, seed):
    g = torch.Generator().manual_seed(seed)
    words = torch.randint(0, VOCAB, (n, SEQ_LEN), generator=g)
    tags = words % N_TAGS
    tags[:, 1:] = torch.where(words[:, 1:] % 7 == 0, (tags[:, :-1] + 1) % N_TAGS, tags[:, 1:])
    return words, tags


def _train(lr):
    torch.manual_seed(0)
    model = Tagger()
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
    words, tags = sentences(640, 1)
    losses = []
    for epoch in range(4):
        for i in range(0, len(words), BATCH_SIZE):
            opt.zero_grad()
            logits = model(words[i : i + BATCH_SIZE])
            loss = F.cross_entropy(logits.reshape(-1, N_TAGS), tags[i : i + BATCH_SIZE].reshape(-1), reduction="sum") / BATCH_SIZE
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses


def _check() -> str:
    ok = _train(0.01)
    bad = _train(0.1)
    first = bad[0]
    low = min(bad[:48])
    high = max(bad[48:])
    assert low < 0.6 * first and high > 1.3 * first, (first, low, high)
    assert sum(bad[-16:]) / 16 > 0.9 * first and ok[-1] < 0.1 * first, (bad[-16:], ok[-1])
    return (
        f"lr 0.1: loss {first:.1f} -> {low:.1f} (first 48 steps) -> up to {high:.1f} -> {sum(bad[-16:]) / 16:.1f} "
        f"(chance level) at the end; lr 0.01: {ok[0]:.1f} -> {ok[-1]:.2f}"
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
