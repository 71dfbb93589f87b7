"""YOLOv2-style few-shot detector head (darknet-ish backbone + region loss), fine-tuned with batch 8."""
import torch
import torch.nn as nn

GRID, N_ANCHORS, N_CLASSES = 4, 3, 5
BATCH_SIZE = 8
LEARNING_RATE = 0.003
MOMENTUM, DECAY = 0.9, 0.0005


class TinyDarknet(nn.Module):
    def __init__(self):
        super().__init__()
        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.LeakyReLU(0.1), nn.MaxPool2d(2))
        self.features = nn.Sequential(block(3, 16), block(16, 32), block(32, 64))
        self.head = nn.Conv2d(64, N_ANCHORS * (5 + N_CLASSES), 1)

    def forward(self, x):
        out = self.head(self.features(x))                       # (B, A*(5+C), 4, 4)
        b = out.shape[0]
        return out.view(b, N_ANCHORS, 5 + N_CLASSES, GRID, GRID)


def region_loss(out, target):
    boxes, obj, cls = target                               # (B,A,4,G,G), (B,A,G,G), (B,A,G,G)
    xy = torch.sigmoid(out[:, :, 0:2])
    wh = out[:, :, 2:4]
    conf = torch.sigmoid(out[:, :, 4])
    logits = out[:, :, 5:]
    m = obj.unsqueeze(2)
    coord = ((xy - boxes[:, :, 0:2]) ** 2 * m).sum() + ((wh - boxes[:, :, 2:4]) ** 2 * m).sum()
    confl = ((conf - obj) ** 2).sum()
    cls_l = (nn.functional.cross_entropy(logits.flatten(0, 1), cls.flatten(0, 1), reduction="none") * obj.flatten(0, 1)).sum()
    return coord + confl + cls_l


def make_batch(n, seed):
    g = torch.Generator().manual_seed(seed)
    x = torch.rand(n, 3, 32, 32, generator=g)
    obj = (torch.rand(n, N_ANCHORS, GRID, GRID, generator=g) < 0.15).float()
    xy = torch.rand(n, N_ANCHORS, 2, GRID, GRID, generator=g)
    wh = torch.randn(n, N_ANCHORS, 2, GRID, GRID, generator=g) * 1.5         # log-space box sizes
    cls = torch.randint(0, N_CLASSES, (n, N_ANCHORS, GRID, GRID), generator=g)
    # make the targets depend on the image so there is something to learn
    bright = x.mean(1, keepdim=True)
    patch = nn.functional.adaptive_avg_pool2d(bright, GRID).unsqueeze(1)        # (n,1,1,G,G)
    wh = wh + 4.0 * patch
    return x, (torch.cat([xy, wh], 2), obj, cls)


def make_target():
    torch.manual_seed(0)
    model = TinyDarknet()
    x, y = make_batch(BATCH_SIZE, 0)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": region_loss,
        "optimizer": lambda params: torch.optim.SGD(params, lr=LEARNING_RATE, momentum=MOMENTUM, weight_decay=DECAY * BATCH_SIZE),
        "train_data": [make_batch(BATCH_SIZE, s) for s in range(1, 41)],
    }
