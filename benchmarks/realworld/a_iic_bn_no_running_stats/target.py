"""Small VGG-style clustering head for 1x28x28 digits with BatchNorm layers built without running statistics."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCHNORM_TRACK = False


def conv_block(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out, track_running_stats=BATCHNORM_TRACK),
        nn.ReLU(inplace=True),
        nn.MaxPool2d(2),
    )


class ClusterNet(nn.Module):
    def __init__(self, n_clusters=10):
        super().__init__()
        self.features = nn.Sequential(conv_block(1, 16), conv_block(16, 32), conv_block(32, 32))
        self.head = nn.Linear(32 * 3 * 3, n_clusters)

    def forward(self, x):
        return F.softmax(self.head(self.features(x).flatten(1)), dim=1)


def make_target():
    torch.manual_seed(0)
    imgs = torch.rand(32, 1, 28, 28)
    labels = torch.randint(0, 10, (32,))
    return {
        "model": ClusterNet(),
        "batch": ((imgs,), labels),
        "loss_fn": lambda probs, y: F.nll_loss(torch.log(probs + 1e-8), y),
        "eval_fn": lambda model, batch: model.eval()(*batch[0]),
    }
