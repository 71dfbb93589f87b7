"""Deep-TEN style texture classifier: a small CNN feature map encoded by a learnable residual Encoding layer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_l2(x, codewords, scale):
    # x: (B, N, D), codewords: (K, D), scale: (K,) -> (B, N, K)
    diff = x.unsqueeze(2) - codewords.view(1, 1, *codewords.shape)
    return scale.view(1, 1, -1) * diff.pow(2).sum(-1)


def aggregate(assign, x, codewords):
    # assign: (B, N, K) -> (B, K, D)
    diff = x.unsqueeze(2) - codewords.view(1, 1, *codewords.shape)
    return (assign.unsqueeze(3) * diff).sum(1)


class Encoding(nn.Module):
    def __init__(self, D, K):
        super().__init__()
        self.D, self.K = D, K
        std = 1.0 / (K * D) ** 0.5
        self.codewords = nn.Parameter(torch.empty(K, D).uniform_(-std, std))
        self.scale = nn.Parameter(torch.empty(K).uniform_(-1, 0))

    def forward(self, X):
        B = X.size(0)
        X = X.view(B, self.D, -1).transpose(1, 2).contiguous()    # B x N x D
        A = F.softmax(scaled_l2(X, self.codewords, self.scale), dim=1)
        return aggregate(A, X, self.codewords)                  # B x K x D


class DeepTEN(nn.Module):
    def __init__(self, n_classes=6, D=32, K=8):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, D, 3, padding=1), nn.BatchNorm2d(D), nn.ReLU(),
        )
        self.encoding = Encoding(D, K)
        self.norm = nn.BatchNorm1d(K * D)
        self.fc = nn.Linear(K * D, n_classes)

    def forward(self, x):
        e = self.encoding(self.features(x))
        e = F.normalize(e.flatten(1), dim=1)
        return self.fc(self.norm(e))


def make_target():
    torch.manual_seed(0)
    images = torch.randn(32, 3, 16, 16)
    labels = torch.randint(0, 6, (32,))
    return {
        "model": DeepTEN(),
        "batch": (images, labels),
        "loss_fn": nn.CrossEntropyLoss(),
        "optimizer": lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9, weight_decay=1e-4),
    }
