"""A small Hugging Face Trainer run: a tiny BERT (random init) classifies token sequences.

Planted bug: the classification head is frozen.

Runs in a few seconds on CPU: `python hf_frozen_head.py`.
"""

import tempfile

import torch
from torch.utils.data import Dataset
from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

VOCAB, T, N = 64, 16, 512


class TokenDataset(Dataset):
    """Class 1 draws most tokens from the upper half of the vocabulary, class 0 from the lower half."""

    def __init__(self, n: int, seed: int) -> None:
        g = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, 2, (n,), generator=g)
        half = VOCAB // 2
        low = torch.randint(1, half, (n, T), generator=g)
        own = low + half * self.labels[:, None]
        noise = torch.randint(1, VOCAB, (n, T), generator=g)
        self.input_ids = torch.where(torch.rand(n, T, generator=g) < 0.8, own, noise)

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        return {"input_ids": self.input_ids[i], "labels": self.labels[i]}


def make_model() -> BertForSequenceClassification:
    config = BertConfig(
        vocab_size=VOCAB,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=T,
        num_labels=2,
    )
    return BertForSequenceClassification(config)


def main(callbacks: list | None = None) -> None:
    torch.manual_seed(0)
    model = make_model()
    # fine-tune only the top of the network: freeze the embeddings... and, by mistake, the head
    for module in (model.bert.embeddings, model.classifier):
        module.requires_grad_(False)
    with tempfile.TemporaryDirectory() as out:
        args = TrainingArguments(
            output_dir=out,
            max_steps=20,
            per_device_train_batch_size=32,
            learning_rate=3e-3,
            report_to=[],
            save_strategy="no",
            logging_strategy="no",
            disable_tqdm=True,
            use_cpu=True,
            seed=0,
        )
        Trainer(model=model, args=args, train_dataset=TokenDataset(N, seed=0), callbacks=callbacks).train()


if __name__ == "__main__":
    main()
