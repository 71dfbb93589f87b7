"""Lane detector with a lane-existence branch (SCNN/RESA style): seg features -> pooled -> fc -> sigmoid per lane."""
import torch
import torch.nn as nn

N_LANES = 4


class ExistHead(nn.Module):
    def __init__(self, ch=16, n_lanes=N_LANES):
        super().__init__()
        self.conv = nn.Conv2d(ch, 8, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d((4, 8))
        self.fc9 = nn.Linear(8 * 4 * 8, 64)
        self.fc10 = nn.Linear(64, n_lanes)

    def forward(self, feat):
        x = self.pool(torch.relu(self.conv(feat))).flatten(1)
        x = torch.relu(self.fc9(x))
        return torch.sigmoid(self.fc10(x))


class LaneNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.Conv2d(16, 16, 3, stride=2, padding=1), nn.ReLU())
        self.exist = ExistHead()

    def forward(self, img):
        return self.exist(self.backbone(img))


exist_criterion = nn.BCEWithLogitsLoss()


def road_images(n, seed):
    g = torch.Generator().manual_seed(seed)
    exist = (torch.rand(n, N_LANES, generator=g) < 0.6).float()
    img = 0.3 * torch.randn(n, 3, 32, 64, generator=g)
    for lane in range(N_LANES):
        col = 8 + 16 * lane
        img[:, :, :, col:col + 3] += 2.0 * exist[:, lane, None, None, None]
    return img, exist


def make_target():
    torch.manual_seed(0)
    model = LaneNet()
    x, y = road_images(32, 1)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": lambda out, y: exist_criterion(out, y),
        "optimizer": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
        "train_data": road_images(512, 2),
        "metric_fn": lambda out, y: ((out > 0.5).float() == y).float().mean().item(),
    }
