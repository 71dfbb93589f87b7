"""Sentence-pair classifier on frozen, large-norm 'pre-trained' embeddings, with a hand-written softmax + log loss."""
import torch
import torch.nn as nn


class PairEntailment(nn.Module):
    def __init__(self, vocab=300, emb_dim=50, proj_dim=32, n_labels=3):
        super().__init__()
        pretrained = torch.randn(vocab, emb_dim) * 40.0          # large, un-normalised frozen vectors
        self.emb = nn.Embedding.from_pretrained(pretrained, freeze=True)
        self.proj = nn.Linear(emb_dim, proj_dim)
        self.out = nn.Linear(2 * proj_dim, n_labels)

    def forward(self, premise, hypothesis):
        p = self.proj(self.emb(premise)).sum(1)
        h = self.proj(self.emb(hypothesis)).sum(1)
        return self.out(torch.cat([p, h], -1))


def manual_nll(label_logits, labels_onehot):
    label_probs = torch.softmax(label_logits, dim=-1)
    log_label_probs = -torch.log(label_probs)
    return torch.sum(log_label_probs * labels_onehot.float())


def make_target():
    torch.manual_seed(0)
    premise = torch.randint(0, 300, (16, 12))
    hypothesis = torch.randint(0, 300, (16, 8))
    labels = torch.nn.functional.one_hot(torch.randint(0, 3, (16,)), 3)
    return {
        "model": PairEntailment(),
        "batch": ((premise, hypothesis), labels),
        "loss_fn": manual_nll,
    }
