"""Tiny vision-language SFT setup: each example is [image tokens][prompt tokens][answer tokens]; only the answer
is supervised (prompt and image positions carry label -100). The collator truncates every sequence to
MODEL_MAX_LEN, and the image tokens are counted in that length."""

import torch
import torch.nn as nn
import torch.nn.functional as F

VOCAB, DIM = 96, 32
N_IMAGE_TOKENS, PROMPT_LEN, ANSWER_LEN = 40, 8, 6
MODEL_MAX_LEN = 44  # set with text-only sequences in mind; the image tokens alone take 40 of it
IGNORE = -100
IMAGE_TOKEN = 1


class TinyVLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, DIM)
        self.vision_proj = nn.Linear(DIM, DIM)
        self.rnn = nn.GRU(DIM, DIM, batch_first=True)
        self.head = nn.Linear(DIM, VOCAB)

    def forward(self, input_ids):
        h = self.emb(input_ids)
        is_img = (input_ids == IMAGE_TOKEN).unsqueeze(-1)
        h = torch.where(is_img, self.vision_proj(h), h)
        out, _ = self.rnn(h)
        return self.head(out)


def build_batch(n, seed, max_len=MODEL_MAX_LEN):
    g = torch.Generator().manual_seed(seed)
    ids, labels = [], []
    for _ in range(n):
        prompt = torch.randint(4, VOCAB, (PROMPT_LEN,), generator=g)
        answer = (prompt[:ANSWER_LEN] * 3 + 7) % (VOCAB - 4) + 4
        seq = torch.cat([torch.full((N_IMAGE_TOKENS,), IMAGE_TOKEN), prompt, answer])
        lab = torch.cat([torch.full((N_IMAGE_TOKENS + PROMPT_LEN,), IGNORE), answer])
        ids.append(seq[:max_len])
        labels.append(lab[:max_len])
    return torch.stack(ids), torch.stack(labels)


def lm_loss(logits, labels):
    # token-averaged next-token loss over supervised positions (as the trainer computes it)
    logits, labels = logits[:, :-1], labels[:, 1:]
    n_items = labels.ne(IGNORE).sum().clamp(min=1)
    return F.cross_entropy(logits.reshape(-1, VOCAB), labels.reshape(-1), ignore_index=IGNORE, reduction="sum") / n_items


def make_target():
    torch.manual_seed(0)
    return {
        "model": TinyVLM(),
        "batch": build_batch(8, 1),
        "loss_fn": lm_loss,
        "optimizer": lambda params: torch.optim.AdamW(params, lr=1e-3),
        "train_data": build_batch(64, 2),
        "causal": True,
    }
