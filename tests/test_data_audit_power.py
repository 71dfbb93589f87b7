"""data_audit's label check: it abstains where simple models have no power (few rows, many features),
still finds labels shuffled apart from their inputs where they do, and reads token ids as token counts.

Each case has a buggy twin and a healthy one (the probe rules).
"""

from __future__ import annotations

import torch
from torch import nn

from debug_agent.schemas import Target

from .test_probes_blindspots import run


def _digits_like(n: int, seed: int = 0, shuffle: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
    """MNIST-like 28x28 images: a faint class-specific stroke pattern, shifted, under many random strokes.

    The labels are related to the images (a network learns them), but with 384 rows for 784 pixels
    kNN and ridge barely beat chance: the regime where the label check used to cry "unrelated".
    """
    g = torch.Generator().manual_seed(seed)
    protos = torch.zeros(10, 28, 28)
    for c in range(10):
        for _ in range(4):
            r, q = torch.randint(6, 22, (2,), generator=g).tolist()
            dr, dq = torch.randint(-1, 2, (2,), generator=g).tolist()
            for t in range(8):
                rr, qq = min(max(r + dr * t, 4), 23), min(max(q + dq * t, 4), 23)
                protos[c, rr - 1 : rr + 2, qq - 1 : qq + 2] = 1.0
    y = torch.randint(0, 10, (n,), generator=g)
    x = torch.zeros(n, 28, 28)
    for i in range(n):
        shift = torch.randint(-2, 3, (2,), generator=g).tolist()
        x[i] = 0.25 * torch.roll(protos[y[i]], tuple(shift), (0, 1))
        for _ in range(80):
            r, q = torch.randint(0, 27, (2,), generator=g).tolist()
            x[i, r : r + 2, q : q + 2] = 1.0
    x = (x * torch.rand(n, 1, 1, generator=g).add(0.5)).clamp(0, 1)
    x = ((x - 0.1307) / 0.3081).reshape(n, 1, 28, 28)
    return x, (y[torch.randperm(n, generator=g)] if shuffle else y)


def _image_target(x: torch.Tensor, y: torch.Tensor) -> Target:
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))
    return Target(model=model, batch=(x[:32], y[:32]), loss_fn=nn.CrossEntropyLoss(), train_data=(x, y))


def test_few_rows_many_features_abstains_not_unrelated():
    healthy = run("data_audit", _image_target(*_digits_like(384)))
    assert "labels_unpredictable" not in healthy.outcomes, healthy.measurements
    assert healthy.status == "passed"
    assert healthy.measurements["label_check"].startswith("inconclusive: 384 examples for 784 features")
    shuffled = run("data_audit", _image_target(*_digits_like(384, shuffle=True)))
    assert "labels_unpredictable" not in shuffled.outcomes  # no power either way: never evidence
    assert shuffled.measurements["label_check"].startswith("inconclusive")


def _tabular(n: int, shuffle: bool) -> Target:
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, 12, generator=g)
    y = (x[:, 0] + 0.5 * x[:, 1] > 0).long()
    if shuffle:
        y = y[torch.randperm(n, generator=g)]
    return Target(model=nn.Linear(12, 2), batch=(x[:32], y[:32]), loss_fn=nn.CrossEntropyLoss(), train_data=(x, y))


def test_shuffled_labels_still_found_where_the_check_has_power():
    bad = run("data_audit", _tabular(400, shuffle=True))
    assert bad.status == "failed" and "labels_unpredictable" in bad.outcomes
    good = run("data_audit", _tabular(400, shuffle=False))
    assert good.status == "passed" and "labels_predictable" in good.outcomes


def _tokens(n: int, shuffle: bool, per_position: bool = False) -> Target:
    """Token sequences whose class decides which half of a 64-token vocabulary most tokens come from."""
    g = torch.Generator().manual_seed(0)
    y = torch.randint(0, 2, (n,), generator=g)
    own = torch.randint(1, 32, (n, 16), generator=g) + 32 * y[:, None]
    ids = torch.where(torch.rand(n, 16, generator=g) < 0.8, own, torch.randint(1, 64, (n, 16), generator=g))
    if shuffle:  # its own seed: with three simple models, about one shuffle in 200 scores 3 sigma over chance
        y = y[torch.randperm(n, generator=torch.Generator().manual_seed(1))]
    labels = ids.roll(-1, 1) if per_position else y
    model = nn.Sequential(nn.Embedding(64, 8), nn.Flatten(), nn.Linear(128, 2))
    return Target(model=model, batch=(ids[:32], labels[:32]), train_data=(ids, labels))


def test_token_ids_are_read_as_token_counts():
    bad = run("data_audit", _tokens(256, shuffle=True))
    assert "labels_unpredictable" in bad.outcomes, bad.measurements
    good = run("data_audit", _tokens(256, shuffle=False))
    assert good.status == "passed" and "labels_predictable" in good.outcomes, good.measurements
    lm = run("data_audit", _tokens(256, shuffle=False, per_position=True))
    assert lm.measurements["label_check"].startswith("skipped")
    assert not {"labels_unpredictable", "labels_predictable"} & set(lm.outcomes)


def test_a_label_set_by_one_position_is_predictable():
    """Labels read from the first token (bag-of-tokens cannot see it): a position lookup can."""
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 64, (384, 12), generator=g)
    labels = ids[:, 0] % 4
    model = nn.Sequential(nn.Embedding(64, 8), nn.Flatten(), nn.Linear(96, 4))
    good = run("data_audit", Target(model=model, batch=(ids[:32], labels[:32]), train_data=(ids, labels)))
    assert "labels_predictable" in good.outcomes, good.measurements
    shuffled = labels[torch.randperm(384, generator=g)]
    bad = run("data_audit", Target(model=model, batch=(ids[:32], shuffled[:32]), train_data=(ids, shuffled)))
    assert "labels_unpredictable" in bad.outcomes, bad.measurements


class PixelModel(nn.Module):
    """Keyword inputs, as a Hugging Face image model takes them: model(pixel_values=...)."""

    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(3 * 8 * 8, 4)

    def forward(self, pixel_values: torch.Tensor) -> torch.Tensor:
        return self.fc(pixel_values.flatten(1))


def test_keyword_inputs_are_read_for_the_feature_scale():
    g = torch.Generator().manual_seed(0)
    raw = torch.randint(0, 256, (96, 3, 8, 8), generator=g).float()  # BUG: 0-255 pixels fed as they are
    y = torch.arange(96) % 4

    def target(x: torch.Tensor) -> Target:
        return Target(
            model=PixelModel(), batch=({"pixel_values": x[:16]}, y[:16]), loss_fn=nn.CrossEntropyLoss(),
            train_data=({"pixel_values": x[:64]}, y[:64]), val_data=({"pixel_values": x[64:]}, y[64:]),
        )  # fmt: skip

    buggy, healthy = run("data_audit", target(raw)), run("data_audit", target((raw / 255 - 0.5) / 0.29))
    assert "features_unscaled" in buggy.outcomes, buggy.summary
    assert buggy.measurements["source"] == "train_data"
    assert "features_unscaled" not in healthy.outcomes and healthy.status != "not_applicable", healthy.summary


def _brightness_classes(n: int, shuffle: bool) -> Target:
    """Random 28x28 images labelled by their overall brightness (3 unbalanced classes, chance 0.40): a real but
    faint relation that kNN and ridge on 784 raw pixels only see a few sigma above chance."""
    g = torch.Generator().manual_seed(0)
    x = torch.rand(n, 1, 28, 28, generator=g)  # (N, 1, 28, 28)
    brightness = x.mean(dim=(1, 2, 3))  # (N,)
    y = torch.bucketize(brightness, torch.quantile(brightness, torch.tensor([0.2, 0.6])))
    if shuffle:
        y = y[torch.randperm(n, generator=g)]
    model = nn.Sequential(nn.Flatten(), nn.Linear(784, 3))
    return Target(model=model, batch=(x[:32], y[:32]), loss_fn=nn.CrossEntropyLoss(), train_data=(x, y))


def test_a_faint_relation_over_every_pixel_is_found_by_the_class_means():
    """kNN and ridge see brightness classes only a few sigma above chance (the weak zone, where the check
    abstained); the nearest class mean reads a label spread over every pixel."""
    faint = run("data_audit", _brightness_classes(1200, shuffle=False))
    assert "labels_predictable" in faint.outcomes and faint.status == "passed", faint.measurements
    shuffled = run("data_audit", _brightness_classes(1200, shuffle=True))
    assert "labels_unpredictable" in shuffled.outcomes, shuffled.measurements


def test_keyword_batches_and_keyword_examples_are_both_read_as_rows():
    """A list of ({"input_ids": (8, 32)}, (8, 32)) batches holds 64 rows, as does a list of 64 examples; token ids
    with a label per position leave no check to apply: inconclusive, never a pass."""
    g = torch.Generator().manual_seed(0)
    ids = torch.randint(0, 200, (64, 33), generator=g)
    batches = [({"input_ids": ids[i : i + 8, :-1]}, ids[i : i + 8, 1:]) for i in range(0, 64, 8)]
    examples = [({"input_ids": ids[i, :-1]}, ids[i, 1:]) for i in range(64)]
    model = nn.Embedding(200, 200)
    for data in (batches, examples):
        result = run("data_audit", Target(model=model, batch=batches[0], call_model=lambda m, x: m(x["input_ids"]),
                                          train_data=data))  # fmt: skip
        assert result.measurements["train_examples"] == 64 and result.measurements["features"] == 32
        assert result.status == "inconclusive" and "no check applied" in result.summary, result.summary


def _age_and_flag(standardise: bool, age_scale: float = 1.0) -> Target:
    """Tabular rows: an age around 31 (std 6) beside a 0/1 flag; the label depends on both."""
    g = torch.Generator().manual_seed(0)
    age = (31 + 6 * torch.randn(300, generator=g)) * age_scale
    flag = (torch.rand(300, generator=g) < 0.5).float()
    x = torch.stack([age, flag], dim=1)  # (N, 2)
    y = ((age > age.mean()).long() + flag.long()).clamp(max=1)
    if standardise:
        x = (x - x.mean(0)) / x.std(0)
    model = nn.Linear(2, 2)
    return Target(model=model, batch=(x[:32], y[:32]), loss_fn=nn.CrossEntropyLoss(), train_data=(x, y))


def test_features_tens_apart_in_scale_are_unscaled_even_under_the_absolute_bound():
    raw = run("data_audit", _age_and_flag(standardise=False))
    assert "features_unscaled" in raw.outcomes and "apart" in raw.summary, raw.summary
    assert "features_scaled" in run("data_audit", _age_and_flag(standardise=True)).outcomes
    small = run("data_audit", _age_and_flag(standardise=False, age_scale=0.2))  # ages in units of 5 years: ~6
    assert "features_scaled" in small.outcomes, small.summary



def test_a_label_spread_thinly_over_many_features_is_found_with_few_rows():
    """384 captured rows for 196 pixels, the label a sum of 49 of them: ridge on half the rows interpolates
    noise and kNN drowns in distance, but the nearest class mean finds it. Shuffled, it is still unrelated."""
    g = torch.Generator().manual_seed(1)
    x = torch.randn(384, 1, 14, 14, generator=g)
    y = (x[:, 0, :7, :7].mean((1, 2)) > 0).long() + 2 * (x[:, 0, 7:, 7:].mean((1, 2)) > 0).long()  # (N,)

    def target(labels: torch.Tensor) -> Target:
        model = nn.Sequential(nn.Flatten(), nn.Linear(196, 4))
        return Target(model=model, batch=(x[:32], labels[:32]), loss_fn=nn.CrossEntropyLoss(), train_data=(x, labels))

    healthy = run("data_audit", target(y))
    assert "labels_predictable" in healthy.outcomes, healthy.measurements
    shuffled = run("data_audit", target(y[torch.randperm(384, generator=g)]))
    assert "labels_unpredictable" in shuffled.outcomes, shuffled.measurements


def test_one_class_training_labels_are_no_relation_to_judge():
    """Anomaly detection trains on normal data only: every label is 0, chance is 1.0 and no model can beat it.
    That is nothing to judge (never 'inputs and labels look unrelated'); two classes are judged as usual."""
    g = torch.Generator().manual_seed(0)
    x = torch.randn(256, 8, generator=g)
    model = nn.Linear(8, 2)

    def target(y: torch.Tensor) -> Target:
        return Target(model=model, batch=(x[:32], y[:32]), loss_fn=nn.CrossEntropyLoss(), train_data=(x, y))

    one = run("data_audit", target(torch.zeros(256, dtype=torch.long)))
    assert "labels_unpredictable" not in one.outcomes and one.status == "passed", one.measurements
    assert one.measurements["label_check"].startswith("skipped: every training label is the same class")
    two = run("data_audit", target((x[:, 0] > 0).long()))  # (N,)
    assert "labels_predictable" in two.outcomes, two.measurements


def test_a_regression_with_fewer_rows_than_twice_its_features_is_not_judged_unrelated():
    """Regression has no class means to fall back on: ridge fits half the rows, so with 300 rows for 200
    features a relation the simple models miss is no evidence of unrelated labels (inconclusive). With 300
    rows for 100 features the check has its power, and shuffled labels are judged unrelated."""
    g = torch.Generator().manual_seed(0)

    def target(d: int) -> Target:
        x = torch.randn(300, d, generator=g)
        y = x[:, 0] * x[:, 1] if d == 200 else torch.randn(300, generator=g)  # a product; or no relation
        return Target(model=nn.Linear(d, 1), batch=(x[:32], y[:32]), loss_fn=nn.MSELoss(), train_data=(x, y))

    few = run("data_audit", target(200))
    assert "labels_unpredictable" not in few.outcomes, few.measurements
    assert few.measurements["label_check"].startswith("inconclusive: 300 examples for 200 features"), few.measurements
    assert "labels_unpredictable" in run("data_audit", target(100)).outcomes
