import torch
import torch.nn.functional as F

PAD, VOCAB = 0, 50


def _batch(text_len, g):
    caps = torch.full((8, text_len), PAD)
    for i in range(8):
        n = int(torch.randint(5, 12, (1,), generator=g))
        caps[i, :n] = torch.randint(1, VOCAB, (n,), generator=g)
    return caps


def _pad_predictor_logits(labels):
    # a model that has only learnt "predict padding" and knows nothing about real words
    logits = torch.zeros(labels.shape[0], VOCAB, labels.shape[1])
    logits[:, PAD] = 6.0
    return logits


def _check() -> str:
    g = torch.Generator().manual_seed(0)
    caps = _batch(256, g)
    logits = _pad_predictor_logits(caps)
    counted = float(F.cross_entropy(logits, caps))
    ignored = float(F.cross_entropy(logits, caps, ignore_index=PAD))
    longer = torch.cat([caps, torch.full((8, 256), PAD)], 1)
    counted_longer = float(F.cross_entropy(_pad_predictor_logits(longer), longer))
    assert counted < 0.3 * ignored and counted_longer < counted, (counted, ignored, counted_longer)
    return (
        f"a 'predict padding' model: loss {counted:.3f} with padding counted (length 256), "
        f"{counted_longer:.3f} at length 512, {ignored:.2f} on the real tokens only"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: avoid CPU thread contention
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
