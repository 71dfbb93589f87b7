"""Reduced MAC-style reasoner: LSTM question encoder + control attention over words + answer classifier."""
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class MiniMAC(nn.Module):
    def __init__(self, vocab=60, dim=32, n_answers=8):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.control_q = nn.Linear(dim, dim)
        self.attn = nn.Linear(dim, 1)
        self.classifier = nn.Sequential(nn.Linear(2 * dim, dim), nn.ELU(), nn.Linear(dim, n_answers))

    def forward(self, question, q_len):
        emb = self.embed(question)
        packed = pack_padded_sequence(emb, q_len.cpu(), batch_first=True, enforce_sorted=False)
        out, (h, _) = self.lstm(packed)
        context, _ = pad_packed_sequence(out, batch_first=True, total_length=question.size(1))
        q_state = h[-1]
        # control unit: attend over every position of the padded context
        scores = self.attn(context * self.control_q(q_state).unsqueeze(1)).squeeze(-1)
        weights = torch.softmax(scores, dim=1)
        control = (weights.unsqueeze(-1) * context).sum(1)
        return self.classifier(torch.cat([control, q_state], dim=-1))


def make_target():
    torch.manual_seed(0)
    lengths = torch.randint(4, 13, (16,))
    question = torch.zeros(16, 12, dtype=torch.long)
    for i, n in enumerate(lengths.tolist()):
        question[i, :n] = torch.randint(1, 60, (n,))
    answers = torch.randint(0, 8, (16,))
    return {
        "model": MiniMAC(),
        "batch": ((question, lengths), answers),
        "loss_fn": nn.CrossEntropyLoss(),
    }
