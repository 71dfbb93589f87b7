import torch
from torch import nn

VOCAB = 200
N_LABELS = 9
SEQ = 24


class Config:
    def __init__(self):
        self.vocab_size = VOCAB
        self.num_labels = N_LABELS
        self.hidden_size = 64
        self.num_heads = 4
        self.num_layers = 2
        self.learning_rate = 1e-6
        self.weight_decay = 0.01


class TransformerTagger(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.pos = nn.Parameter(torch.zeros(1, SEQ, cfg.hidden_size))
        layer = nn.TransformerEncoderLayer(cfg.hidden_size, cfg.num_heads, 4 * cfg.hidden_size,
                                           dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, cfg.num_layers)
        self.classifier = nn.Linear(cfg.hidden_size, cfg.num_labels)

    def forward(self, input_ids):
        return self.classifier(self.encoder(self.emb(input_ids) + self.pos))


def make_batch(n=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, VOCAB, (n, SEQ), generator=g)
    labels = torch.where(ids < 150, torch.zeros_like(ids), 1 + ids % (N_LABELS - 1))
    return ids, labels


def ner_loss(logits, labels):
    return nn.functional.cross_entropy(logits.reshape(-1, N_LABELS), labels.reshape(-1))


def make_target():
    torch.manual_seed(0)
    cfg = Config()
    return {
        "model": TransformerTagger(cfg),
        "batch": make_batch(),
        "loss_fn": ner_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=cfg.learning_rate, weight_decay=cfg.weight_decay),
    }
