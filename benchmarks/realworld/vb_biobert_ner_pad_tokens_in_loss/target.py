import torch
from torch import nn
from transformers import BertConfig, BertForTokenClassification

LABELS = ["[PAD]", "O", "B-Disease", "I-Disease", "B-Chemical", "I-Chemical", "X", "[CLS]", "[SEP]"]
VOCAB = 120
MAX_SEQ_LENGTH = 64


def build_model():
    cfg = BertConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=128, num_labels=len(LABELS))
    return BertForTokenClassification(cfg)


def convert_examples(n=16, max_seq_length=MAX_SEQ_LENGTH, seed=0):
    g = torch.Generator().manual_seed(seed)
    input_ids = torch.zeros(n, max_seq_length, dtype=torch.long)
    input_mask = torch.zeros(n, max_seq_length, dtype=torch.long)
    label_ids = torch.zeros(n, max_seq_length, dtype=torch.long)
    for i in range(n):
        length = int(torch.randint(8, 20, (1,), generator=g))
        toks = torch.randint(5, VOCAB, (length,), generator=g)
        labs = 1 + (toks % 5)
        input_ids[i, 0], label_ids[i, 0] = 1, LABELS.index("[CLS]")
        input_ids[i, 1:length + 1], label_ids[i, 1:length + 1] = toks, labs
        input_ids[i, length + 1], label_ids[i, length + 1] = 2, LABELS.index("[SEP]")
        input_mask[i, :length + 2] = 1
    return {"input_ids": input_ids, "attention_mask": input_mask}, label_ids


def ner_loss(output, label_ids):
    log_probs = nn.functional.log_softmax(output.logits, dim=-1)
    one_hot = nn.functional.one_hot(label_ids, num_classes=len(LABELS)).float()
    per_example_loss = -(one_hot * log_probs).sum(-1)
    return per_example_loss.mean()


def make_target():
    torch.manual_seed(0)
    inputs, labels = convert_examples()
    return {
        "model": build_model(),
        "batch": (inputs, labels),
        "loss_fn": ner_loss,
        "optimizer": lambda p: torch.optim.AdamW(p, lr=3e-3),
    }
