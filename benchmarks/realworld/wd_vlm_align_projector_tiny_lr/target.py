"""Small vision-language model with an extra projector that aligns mid-layer image-token states to frozen
teacher (DINO-style) features; trained jointly with the answer-token loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F

PATCHES, PATCH_DIM, HID, TEACHER_DIM, VOCAB = 16, 24, 64, 48, 30


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.mix = nn.Linear(PATCHES, PATCHES)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, h):
        h = h + self.mix(self.norm(h).transpose(1, 2)).transpose(1, 2)
        return h + self.ff(self.norm(h))


class TinyVLMWithAlign(nn.Module):
    def __init__(self, align_layer=2):
        super().__init__()
        self.patch_embed = nn.Linear(PATCH_DIM, HID)
        self.blocks = nn.ModuleList([Block(HID) for _ in range(4)])
        self.lm_head = nn.Linear(HID, VOCAB)
        self.align_layer = align_layer
        # new module added on top of the (pre-trained) model
        self.align_projector = nn.Sequential(nn.Linear(HID, HID), nn.GELU(), nn.Linear(HID, TEACHER_DIM))

    def forward(self, patches):
        h = self.patch_embed(patches)
        mid = None
        for i, blk in enumerate(self.blocks):
            h = blk(h)
            if i + 1 == self.align_layer:
                mid = h
        logits = self.lm_head(h.mean(dim=1))
        return logits, self.align_projector(mid)


def vlm_loss(outputs, targets, align_weight=1.0):
    logits, projected = outputs
    labels, teacher = targets
    ce = F.cross_entropy(logits, labels)
    align = 1.0 - F.cosine_similarity(projected, teacher, dim=-1).mean()
    return ce + align_weight * align


def make_batch(n, seed):
    g = torch.Generator().manual_seed(seed)
    patches = torch.randn(n, PATCHES, PATCH_DIM, generator=g)
    mix = torch.randn(PATCH_DIM, TEACHER_DIM, generator=torch.Generator().manual_seed(99))
    teacher = torch.tanh(patches @ mix / PATCH_DIM ** 0.5)          # frozen teacher features per image token
    labels = (patches[:, :, 0].sum(1) > 0).long() + 2 * (patches[:, :, 1].sum(1) > 0).long()
    return patches, (labels, teacher)


def make_target():
    torch.manual_seed(0)
    x, y = make_batch(16, 1)
    return {
        "model": TinyVLMWithAlign(),
        "batch": (x, y),
        "loss_fn": vlm_loss,
        # copied from the fine-tuning recipe for the pretrained weights
        "optimizer": lambda p: torch.optim.AdamW(p, lr=2e-7, weight_decay=0.0),
        "train_data": [make_batch(16, s) for s in range(2, 10)],
        "val_data": [make_batch(16, s) for s in range(10, 12)],
    }
