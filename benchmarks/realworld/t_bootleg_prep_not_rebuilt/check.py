"""Self-contained: a prep cache keyed only on the file name serves the old sentences after the file is edited."""

import json
import os
import tempfile

import torch

VOCAB = {"<unk>": 1}


def _tokenize(sentence):
    out = []
    for tok in sentence.lower().split():
        if tok not in VOCAB:
            VOCAB[tok] = len(VOCAB) + 1
        out.append(VOCAB[tok])
    return out


def _prepare(input_path, max_len=32):
    prep_dir = os.path.join(os.path.dirname(input_path), "prep")
    cache = os.path.join(prep_dir, os.path.basename(input_path) + ".pt")
    if os.path.exists(cache):
        return torch.load(cache)
    sentences = [json.loads(line)["sentence"] for line in open(input_path)]
    ids = torch.zeros(len(sentences), max_len, dtype=torch.long)
    lengths = torch.zeros(len(sentences), dtype=torch.long)
    for i, s in enumerate(sentences):
        tok = _tokenize(s)[:max_len]
        ids[i, : len(tok)] = torch.tensor(tok)
        lengths[i] = len(tok)
    os.makedirs(prep_dir, exist_ok=True)
    torch.save((ids, lengths), cache)
    return ids, lengths


def _write(path, sentences):
    with open(path, "w") as f:
        for s in sentences:
            f.write(json.dumps({"sentence": s}) + "\n")


def _check() -> str:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "sample.jsonl")
        _write(path, ["Lincoln was born in Kentucky"])
        ids1, len1 = _prepare(path)
        _write(path, ["Abraham Lincoln the sixteenth president was born in Hodgenville Kentucky in 1809"])
        ids2, len2 = _prepare(path)
        expected = len(_tokenize("Abraham Lincoln the sixteenth president was born in Hodgenville Kentucky in 1809"))
        assert len2.item() == len1.item() == 5 and expected == 12, (len1, len2, expected)
        assert torch.equal(ids1, ids2)
        os.remove(os.path.join(d, "prep", "sample.jsonl.pt"))
        ids3, len3 = _prepare(path)
        assert len3.item() == expected
    return (
        f"after editing the input, prepare() returned the cached 5-token sentence instead of the new "
        f"{expected}-token one; after deleting prep/ it returned {len3.item()} tokens"
    )


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
