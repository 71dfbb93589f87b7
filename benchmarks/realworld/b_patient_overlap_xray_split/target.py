"""Chest X-ray feature classifier whose data split is done per image, not per patient."""
import torch
import torch.nn as nn

N_PATIENTS = 60
IMGS_PER_PATIENT = 4
D = 32


def make_images(seed=0):
    """Returns features, labels and patient ids; each patient has a strong individual 'look'."""
    g = torch.Generator().manual_seed(seed)
    look = 3.0 * torch.randn(N_PATIENTS, D, generator=g)
    label = torch.randint(0, 2, (N_PATIENTS,), generator=g)
    disease_dir = torch.randn(D, generator=g)
    disease_dir = disease_dir / disease_dir.norm()
    pid = torch.arange(N_PATIENTS).repeat_interleave(IMGS_PER_PATIENT)
    x = look[pid] + 0.3 * (2 * label[pid, None].float() - 1) * disease_dir + 0.5 * torch.randn(len(pid), D, generator=g)
    return x, label[pid], pid


def image_level_split(x, y, frac_val=0.25, seed=0):
    g = torch.Generator().manual_seed(seed)
    perm = torch.randperm(len(x), generator=g)  # BUG: shuffles images, ignoring patient ids
    n_val = int(frac_val * len(x))
    val_idx, train_idx = perm[:n_val], perm[n_val:]
    return (x[train_idx], y[train_idx]), (x[val_idx], y[val_idx]), train_idx, val_idx


def make_target():
    torch.manual_seed(0)
    x, y, _ = make_images()
    train, val, _, _ = image_level_split(x, y)
    model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 2))
    return {
        "model": model,
        "batch": (train[0][:32], train[1][:32]),
        "loss_fn": nn.CrossEntropyLoss(),
        "metric_fn": lambda out, t: float((out.argmax(1) == t).float().mean()),
        "train_data": train,
        "val_data": val,
    }
