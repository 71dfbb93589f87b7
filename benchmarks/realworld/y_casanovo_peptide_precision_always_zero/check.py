"""Score a set of predicted peptides with the whole-peptide comparison from the diff and with a token comparison."""

import random

import torch

AA = list("ACDEFGHIKLMNPQRSTVWY") + ["M[Oxidation]", "C[Carbamidomethyl]"]


def split_peptide(p):
    out, i = [], 0
    while i < len(p):
        j = p.find("]", i) + 1 if i + 1 < len(p) and p[i + 1] == "[" else i + 1
        out.append(p[i:j])
        i = j
    return out


def metrics(true, pred, buggy):
    n_aa_pred = n_aa_match = n_pep = 0
    for t, p in zip(true, pred, strict=True):
        tt = split_peptide(t)
        tp = split_peptide(p)
        n_aa_pred += len(tp)
        match = [a == b for a, b in zip(tt, tp, strict=False)]
        n_aa_match += sum(match)
        n_pep += int(p == tt) if buggy else int(all(match) and len(tt) == len(tp))
    return n_aa_match / n_aa_pred, n_pep / len(pred)


def _check() -> str:
    rng = random.Random(0)
    true = ["".join(rng.choice(AA) for _ in range(rng.randint(7, 14))) for _ in range(500)]
    pred = []
    for t in true:
        toks = split_peptide(t)
        if rng.random() < 0.3:
            k = rng.randrange(len(toks))
            toks[k] = rng.choice([a for a in AA if a != toks[k]])
        pred.append("".join(toks))
    aa_b, pep_b = metrics(true, pred, buggy=True)
    aa_f, pep_f = metrics(true, pred, buggy=False)
    assert pep_b == 0.0 and pep_f > 0.6, (pep_b, pep_f)
    assert aa_f > 0.9, aa_f
    return (f"500 predictions, ~70% exactly correct: peptide precision reported {pep_b:.3f} (AA precision {aa_b:.3f}); "
            f"token-level comparison: peptide precision {pep_f:.3f}, AA precision {aa_f:.3f}")


def check() -> str:
    n_threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n_threads)


if __name__ == "__main__":
    print(check())
