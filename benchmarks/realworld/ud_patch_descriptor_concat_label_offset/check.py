import importlib.util
import os

import torch


def _load():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("ud_patch_descriptor_concat_label_offset_target", os.path.join(here, "target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    T = _load()
    sources = [T.make_patch_dataset(12, 4, seed=s) for s in (1, 2, 3)]
    ds = T.TotalDatasetsLoader(sources)
    origin = torch.cat([torch.full((len(s[1]),), k) for k, s in enumerate(sources)])
    n_points = sum(int(s[1].max()) + 1 for s in sources)
    mixed = 0
    for lab in ds.labels.unique():
        if origin[ds.labels == lab].unique().numel() > 1:
            mixed += 1
    # how alike are patches the merged labels call "the same point"?
    x = ds.data.flatten(1)
    same = ds.labels.unsqueeze(0) == ds.labels.unsqueeze(1)
    same.fill_diagonal_(False)
    true_same = same & (origin.unsqueeze(0) == origin.unsqueeze(1))
    cross = same & ~true_same
    d = torch.cdist(x, x)
    d_true, d_cross = d[true_same].mean().item(), d[cross].mean().item()
    assert ds.labels.unique().numel() < n_points, (ds.labels.unique().numel(), n_points)
    assert mixed > 0 and cross.any(), mixed
    assert d_cross > 2 * d_true, (d_true, d_cross)
    return (f"{n_points} distinct 3D points merge into {ds.labels.unique().numel()} labels; {mixed} labels mix patches "
            f"from two datasets; 'positive' pairs across datasets are {d_cross / d_true:.1f}x farther apart than true ones")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
