"""A small Hugging Face Trainer run: a tiny GPT-2 (random init) learns a copy task, with labels shifted twice.

The dataset already shifts (`input_ids = seq[:-1]`, `labels = seq[1:]`) and GPT2LMHeadModel shifts the labels
again inside its loss, so position t is trained to predict token t+2. Runs in seconds on CPU:
`python hf_labels_shifted_twice.py`.
"""

import tempfile

import torch
from torch.utils.data import Dataset
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments

VOCAB, T, N = 64, 32, 512


class CopyDataset(Dataset):
    """Random first halves, repeated: the second half of each sequence is predictable from the first."""

    def __init__(self, n: int, seed: int) -> None:
        g = torch.Generator().manual_seed(seed)
        first = torch.randint(0, VOCAB, (n, T // 2), generator=g)
        self.seqs = torch.cat([first, first], 1)  # (n, T)

    def __len__(self) -> int:
        return len(self.seqs)

    def __getitem__(self, i: int) -> dict[str, torch.Tensor]:
        seq = self.seqs[i]
        return {"input_ids": seq[:-1], "labels": seq[1:]}  # shifted here, and again inside the model's loss


def make_model() -> GPT2LMHeadModel:
    return GPT2LMHeadModel(GPT2Config(vocab_size=VOCAB, n_positions=T, n_embd=32, n_layer=2, n_head=2))


def main(callbacks: list | None = None) -> None:
    torch.manual_seed(0)
    model = make_model()
    with tempfile.TemporaryDirectory() as out:
        args = TrainingArguments(
            output_dir=out,
            max_steps=20,
            per_device_train_batch_size=16,
            learning_rate=1e-3,
            report_to=[],
            save_strategy="no",
            logging_strategy="no",
            disable_tqdm=True,
            use_cpu=True,
            seed=0,
        )
        Trainer(model=model, args=args, train_dataset=CopyDataset(N, seed=0), callbacks=callbacks).train()


if __name__ == "__main__":
    main()
