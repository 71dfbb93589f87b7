"""Lane detection net (ERFNet-like, tiny): per-pixel lane segmentation + a lane-existence branch for 4 lanes."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn(cin, cout, stride=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class LaneExist(nn.Module):
    def __init__(self, cin, num_lanes=4):
        super().__init__()
        self.conv = conv_bn(cin, 16)
        self.fc1 = nn.Linear(16 * 2 * 4, 64)
        self.fc2 = nn.Linear(64, num_lanes)

    def forward(self, x):
        x = F.adaptive_avg_pool2d(self.conv(x), (2, 4)).flatten(1)
        x = F.relu(self.fc1(x))
        return torch.sigmoid(self.fc2(x))


class LaneNet(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.encoder = nn.Sequential(conv_bn(3, 16, 2), conv_bn(16, 32, 2), conv_bn(32, 32))
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(32, 16, 2, stride=2), nn.ReLU(inplace=True),
            nn.ConvTranspose2d(16, num_classes, 2, stride=2),
        )
        self.lane_exist = LaneExist(32)

    def forward(self, img):
        feat = self.encoder(img)
        return self.decoder(feat), self.lane_exist(feat)


seg_criterion = nn.CrossEntropyLoss(weight=torch.tensor([0.4, 1.0, 1.0, 1.0, 1.0]))
exist_criterion = nn.BCEWithLogitsLoss()


def lane_loss(output, targets):
    seg_pred, exist_pred = output
    seg_gt, exist_gt = targets
    return seg_criterion(seg_pred, seg_gt) + 0.1 * exist_criterion(exist_pred, exist_gt)


def make_batch(n=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    exist = (torch.rand(n, 4, generator=g) > 0.4).float()
    img = 0.3 * torch.randn(n, 3, 16, 32, generator=g)
    seg = torch.zeros(n, 16, 32, dtype=torch.long)
    for i in range(n):
        for lane in range(4):
            if exist[i, lane]:
                col = 4 + 7 * lane
                img[i, :, :, col:col + 2] += 1.5
                seg[i, :, col:col + 2] = lane + 1
    return img, (seg, exist)


def make_target():
    torch.manual_seed(0)
    img, targets = make_batch()
    return {
        "model": LaneNet(),
        "batch": (img, targets),
        "loss_fn": lane_loss,
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, weight_decay=1e-4),
    }
