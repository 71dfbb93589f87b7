"""LSTM text classifier whose embedding layer is supposed to be frozen (freeze=True)."""
import torch
import torch.nn as nn


class LSTMModule(nn.Module):
    def __init__(self, vocab_size, embed_size, hidden_size, embeddings=None, freeze=False):
        super().__init__()
        if embeddings is None:
            self.embeddings = nn.Embedding(vocab_size, embed_size)
        else:
            self.embeddings = nn.Embedding.from_pretrained(embeddings, freeze=freeze)
        self.freeze = freeze
        self.lstm = nn.LSTM(embed_size, hidden_size, batch_first=True, bidirectional=True)

    def forward(self, x):
        out, _ = self.lstm(self.embeddings(x))
        return out.max(dim=1).values


class EndModel(nn.Module):
    def __init__(self, input_module, n_classes=2):
        super().__init__()
        self.input_module = input_module
        self.head = nn.Linear(2 * input_module.lstm.hidden_size, n_classes)

    def forward(self, x):
        return self.head(self.input_module(x))


def make_target():
    torch.manual_seed(123)
    lstm = LSTMModule(vocab_size=300, embed_size=16, hidden_size=24, embeddings=None, freeze=True)
    model = EndModel(lstm)
    x = torch.randint(1, 300, (32, 12))
    y = (x[:, 0] % 2).long()
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-2),
    }
