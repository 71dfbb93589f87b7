"""Text classifier: GRU over packed, length-sorted sequences; mean of outputs plus final hidden state feeds the head."""
import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, EMB, HID, CLASSES, T = 50, 16, 24, 3, 12


def sort_by_length(text, lengths):
    sorted_lengths, order = lengths.sort(descending=True)
    restore = order.argsort()
    return text[order], sorted_lengths, restore


class RnnClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMB, padding_idx=0)
        self.rnn = nn.GRU(EMB, HID, batch_first=True)
        self.fc = nn.Linear(HID, CLASSES)

    def forward(self, text, lengths):
        text, sorted_lengths, restore = sort_by_length(text, lengths)
        emb = self.embedding(text)
        packed = nn.utils.rnn.pack_padded_sequence(emb, sorted_lengths, batch_first=True)
        packed_out, hidden = self.rnn(packed)
        output, _ = nn.utils.rnn.pad_packed_sequence(packed_out, batch_first=True, total_length=text.size(1))
        # put the sequences back in the order they came in
        output = output[restore]
        batch_size = output.size(0)
        hidden = hidden.permute(1, 0, 2).reshape(batch_size, -1, HID).mean(dim=1)
        return self.fc(output.mean(dim=1) + hidden)


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    lengths = torch.randint(3, T + 1, (n,), generator=g)
    text = torch.randint(1, VOCAB, (n, T), generator=g)
    for i, L in enumerate(lengths.tolist()):
        text[i, L:] = 0
    # label: which third of the vocabulary the first token falls into
    labels = (text[:, 0] - 1) * CLASSES // (VOCAB - 1)
    return text, lengths, labels


def make_target():
    torch.manual_seed(0)
    text, lengths, labels = make_data(32, 1)
    tr_text, tr_len, tr_y = make_data(256, 2)
    va_text, va_len, va_y = make_data(128, 3)
    return {
        "model": RnnClassifier(),
        "batch": ((text, lengths), labels),
        "loss_fn": lambda logits, y: F.cross_entropy(logits, y),
        "metric_fn": lambda logits, y: (logits.argmax(-1) == y).float().mean().item(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=3e-3),
        "train_data": [((tr_text[i:i + 32], tr_len[i:i + 32]), tr_y[i:i + 32]) for i in range(0, 256, 32)],
        "val_data": [((va_text[i:i + 32], va_len[i:i + 32]), va_y[i:i + 32]) for i in range(0, 128, 32)],
    }
