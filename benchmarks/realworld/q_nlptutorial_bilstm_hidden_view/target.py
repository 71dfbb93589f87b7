"""Bi-LSTM with attention whose query is the final hidden state; the state is reshaped with view."""

import torch
from torch import nn


class BiLSTMAttention(nn.Module):
    def __init__(self, vocab=40, emb=8, n_hidden=6, classes=2):
        super().__init__()
        self.n_hidden = n_hidden
        self.embedding = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, n_hidden, bidirectional=True)
        self.out = nn.Linear(n_hidden * 2, classes)

    def attention(self, lstm_output, final_state):
        # lstm_output: [batch, seq, 2H]; final_state: [2, batch, H]
        hidden = final_state.view(-1, self.n_hidden * 2, 1)  # [batch, 2H, 1]
        weights = torch.bmm(lstm_output, hidden).squeeze(2).softmax(1)
        return torch.bmm(lstm_output.transpose(1, 2), weights.unsqueeze(2)).squeeze(2)

    def forward(self, x):  # x: [batch, seq] token ids
        inp = self.embedding(x).transpose(0, 1)  # [seq, batch, emb]
        output, (h_n, _) = self.lstm(inp)
        output = output.transpose(0, 1)  # [batch, seq, 2H]
        return self.out(self.attention(output, h_n))


def make_target():
    torch.manual_seed(0)
    x = torch.randint(0, 40, (8, 5))
    y = (x[:, 0] > 20).long()
    return {"model": BiLSTMAttention(), "batch": (x, y), "loss_fn": nn.CrossEntropyLoss(),
            "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3)}
