import torch
from torch import nn


class Backbone(nn.Module):
    def __init__(self, ch=32):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(),
            nn.Conv2d(16, ch, 3, 2, 1), nn.ReLU(),
        )

    def forward(self, x):
        return self.body(x)


class DETR(nn.Module):
    def __init__(self, num_classes=5, num_queries=8, d_model=32):
        super().__init__()
        self.backbone = Backbone(d_model)
        self.input_proj = nn.Conv2d(d_model, d_model, 1)
        self.transformer = nn.Transformer(d_model, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                                          dim_feedforward=64, dropout=0.0, batch_first=True)
        self.query_embed = nn.Embedding(num_queries, d_model)
        self.class_embed = nn.Linear(d_model, num_classes + 1)
        self.bbox_embed = nn.Sequential(nn.Linear(d_model, d_model), nn.ReLU(), nn.Linear(d_model, 4))

    def forward(self, images):
        src = self.input_proj(self.backbone(images)).flatten(2).transpose(1, 2)
        tgt = self.query_embed.weight.unsqueeze(0).expand(images.shape[0], -1, -1)
        hs = self.transformer(src, tgt)
        return self.class_embed(hs), self.bbox_embed(hs).sigmoid()


def set_criterion(outputs, targets):
    logits, boxes = outputs
    labels, gt_boxes = targets
    return nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten()) + \
        5.0 * nn.functional.l1_loss(boxes, gt_boxes)


def get_optimizer(model, lr=1e-4, backbone_lr=1e-5, weight_decay=1e-4):
    param_groups = [
        {"params": model.input_proj.parameters(), "lr": lr},
        {"params": model.transformer.parameters(), "lr": lr},
        {"params": list(model.class_embed.parameters()) + list(model.bbox_embed.parameters()), "lr": lr},
        {"params": model.query_embed.parameters(), "lr": lr},
    ]
    return torch.optim.AdamW(param_groups, lr=lr, weight_decay=weight_decay)


def make_target():
    torch.manual_seed(0)
    images = torch.randn(4, 3, 32, 32)
    labels = torch.randint(0, 6, (4, 8))
    boxes = torch.rand(4, 8, 4)
    return {
        "model": DETR(),
        "batch": (images, (labels, boxes)),
        "loss_fn": set_criterion,
        "optimizer": lambda model: get_optimizer(model),
    }
