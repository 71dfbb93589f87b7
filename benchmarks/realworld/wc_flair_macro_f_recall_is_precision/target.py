"""Linear text classifier head with a hand-written macro-F metric (per-class precision / recall)."""
import torch
from torch import nn

N_CLASSES, DIM = 4, 12


class Metric:
    def __init__(self, preds, gold, n_classes):
        self.preds, self.gold, self.n = preds, gold, n_classes

    def get_classes(self):
        return list(range(self.n))

    def _tp(self, c):
        return int(((self.preds == c) & (self.gold == c)).sum())

    def _fp(self, c):
        return int(((self.preds == c) & (self.gold != c)).sum())

    def _fn(self, c):
        return int(((self.preds != c) & (self.gold == c)).sum())

    def precision(self, c):
        d = self._tp(c) + self._fp(c)
        return self._tp(c) / d if d > 0 else 0.0

    def recall(self, c):
        d = self._tp(c) + self._fn(c)
        return self._tp(c) / d if d > 0 else 0.0

    def macro_avg_f_score(self):
        class_precisions = [self.precision(c) for c in self.get_classes()]
        class_recalls = [self.precision(c) for c in self.get_classes()]
        p = sum(class_precisions) / len(class_precisions)
        r = sum(class_recalls) / len(class_recalls)
        return 2 * p * r / (p + r) if p + r > 0 else 0.0


def metric_fn(output, targets):
    return Metric(output.argmax(-1), targets, N_CLASSES).macro_avg_f_score()


def make_target():
    torch.manual_seed(0)
    model = nn.Linear(DIM, N_CLASSES)
    with torch.no_grad():
        model.bias.copy_(torch.tensor([2.0, 0.0, 0.0, 0.0]))  # an early, majority-class-happy head
    # imbalanced dev set: class 0 dominates
    y = torch.cat([torch.zeros(40, dtype=torch.long), torch.randint(1, N_CLASSES, (24,))])
    centers = torch.randn(N_CLASSES, DIM)
    x = centers[y] + 0.8 * torch.randn(len(y), DIM)
    return {
        "model": model,
        "batch": (x, y),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": metric_fn,
    }
