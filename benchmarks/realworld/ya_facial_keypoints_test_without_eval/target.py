"""Facial keypoint regression CNN (68 (x, y) keypoints from a grayscale face crop)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 5)
        self.conv2 = nn.Conv2d(16, 32, 3)
        self.conv3 = nn.Conv2d(32, 64, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.drop1 = nn.Dropout(p=0.1)
        self.drop2 = nn.Dropout(p=0.2)
        self.drop3 = nn.Dropout(p=0.3)
        self.fc1 = nn.Linear(64 * 2 * 2, 256)
        self.drop4 = nn.Dropout(p=0.4)
        self.fc2 = nn.Linear(256, 136)

    def forward(self, x):
        x = self.drop1(self.pool(F.relu(self.conv1(x))))
        x = self.drop2(self.pool(F.relu(self.conv2(x))))
        x = self.drop3(self.pool(F.relu(self.conv3(x))))
        x = self.drop4(F.relu(self.fc1(x.flatten(1))))
        return self.fc2(x)


def net_sample_output(net, images):
    # forward pass on a batch of test images; keypoints come back normalised (mean 100, std 50 in pixels)
    output_pts = net(images)
    return output_pts.view(output_pts.size(0), 68, -1)


def keypoint_mse(output, key_pts):
    return F.mse_loss(output.reshape(key_pts.shape), key_pts).item()


def make_faces(n, seed=0):
    # synthetic face crops: a bright blob whose position/size sets where the 68 template keypoints land
    g = torch.Generator().manual_seed(seed)
    template = torch.randn(68, 2, generator=g) * 0.3
    centre = torch.rand(n, 1, 2, generator=g) * 1.2 - 0.6
    size = 0.6 + 0.8 * torch.rand(n, 1, 1, generator=g)
    ys, xs = torch.meshgrid(torch.linspace(-1, 1, 32), torch.linspace(-1, 1, 32), indexing="ij")
    d2 = (xs - centre[:, :, 0, None]) ** 2 + (ys - centre[:, :, 1, None]) ** 2
    images = torch.exp(-d2 / (0.2 * size) ** 2).unsqueeze(1) + 0.05 * torch.rand(n, 1, 32, 32, generator=g)
    return images, centre + size * template


def make_target():
    torch.manual_seed(0)
    images, key_pts = make_faces(16)
    net = Net()
    return {
        "model": net,
        "batch": (images, key_pts.view(16, -1)),
        "loss_fn": nn.SmoothL1Loss(),
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "eval_fn": net_sample_output,
        "metric_fn": keypoint_mse,
    }
