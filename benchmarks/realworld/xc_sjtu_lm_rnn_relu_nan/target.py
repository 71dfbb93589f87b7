"""Word-level language model (course codebase style): Embedding -> 2-layer RNN -> Linear decoder.

Inputs are sequence-first token ids (T, B); the model predicts the next token at every position.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, SEQ_LEN, BATCH = 200, 35, 16


class RNNModel(nn.Module):
    def __init__(self, rnn_type="LSTM", ntoken=VOCAB, ninp=32, nhid=64, nlayers=2):
        super().__init__()
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ("LSTM", "GRU"):
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers)
        else:
            nonlinearity = {"RNN_TANH": "tanh", "RNN_RELU": "relu"}[rnn_type]
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity)
        self.decoder = nn.Linear(nhid, ntoken)

    def forward(self, ids):                      # ids: (T, B)
        out, _ = self.rnn(self.encoder(ids))
        return self.decoder(out)                 # (T, B, V)


def _corpus(n_tokens, seed=1):
    g = torch.Generator().manual_seed(seed)
    trans = torch.softmax(torch.randn(VOCAB, VOCAB, generator=g) * 2.0, dim=1)
    toks = [0]
    for _ in range(n_tokens):
        toks.append(torch.multinomial(trans[toks[-1]], 1, generator=g).item())
    return torch.tensor(toks)


def _batches(data):
    span = SEQ_LEN * BATCH
    out = []
    for j in range(0, len(data) - span - 1, SEQ_LEN):
        x = data[j:j + span].view(BATCH, SEQ_LEN).t().contiguous()
        y = data[j + 1:j + 1 + span].view(BATCH, SEQ_LEN).t().contiguous()
        out.append((x, y))
    return out


def loss_fn(logits, targets):
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))


def train_step(model, batch, optimizer, loss_fn):
    model.train()
    x, y = batch
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()


def make_target():
    torch.manual_seed(0)
    train = _batches(_corpus(SEQ_LEN * BATCH * 4 + 1, seed=1))
    val = _batches(_corpus(SEQ_LEN * BATCH * 2 + 1, seed=2))
    return {
        "model": RNNModel("RNN_RELU"),
        "batch": train[0],
        "loss_fn": loss_fn,
        "train_step": train_step,
        "optimizer": lambda params: torch.optim.SGD(params, lr=5.0),
        "train_data": train,
        "val_data": val,
        "batch_axis": 1,
        "causal": True,
        "sequence_dim": 0,
    }
