"""Cut one image into 50%-overlapping tiles, split them at random, and score a memorising per-pixel classifier
(1-nearest-neighbour on pixel values) on the random validation tiles and on a separate image."""

import torch


def _scene(seed, size=96, classes=4):
    g = torch.Generator().manual_seed(seed)
    img = torch.randn(3, size, size, generator=g)
    blocks = torch.randint(0, classes, (size // 8, size // 8), generator=g)
    labels = blocks.repeat_interleave(8, 0).repeat_interleave(8, 1)
    return img, labels


def _tile_origins(size, tile=16, step=8):
    return [(r, c) for r in range(0, size - tile + 1, step) for c in range(0, size - tile + 1, step)]


def _pixels(img, labels, origins, tile=16):
    mask = torch.zeros(labels.shape, dtype=torch.bool)
    for r, c in origins:
        mask[r : r + tile, c : c + tile] = True
    return img[:, mask].T, labels[mask]


def _nn_acc(train_x, train_y, x, y):
    pred = train_y[torch.cdist(x, train_x).argmin(1)]
    return (pred == y).float().mean().item()


def _check() -> str:
    img, labels = _scene(1)
    origins = _tile_origins(96)
    g = torch.Generator().manual_seed(0)
    is_val = (torch.rand(len(origins), generator=g) < 0.2).tolist()
    tx, ty = _pixels(img, labels, [o for o, v in zip(origins, is_val) if not v])
    vx, vy = _pixels(img, labels, [o for o, v in zip(origins, is_val) if v])
    pick = torch.randperm(len(vx), generator=g)[:1500]
    val_acc = _nn_acc(tx, ty, vx[pick], vy[pick])
    oimg, olabels = _scene(2)
    ox, oy = _pixels(oimg, olabels, _tile_origins(96, step=16))
    pick = torch.randperm(len(ox), generator=g)[:1500]
    other_acc = _nn_acc(tx, ty, ox[pick], oy[pick])
    assert val_acc > 0.8, val_acc
    assert other_acc < 0.4, other_acc
    return f"{sum(is_val)} random val tiles (50% overlap): pixel accuracy {val_acc:.2f}; separate image: {other_acc:.2f} (4 classes)"


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
