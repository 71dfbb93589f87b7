import torch
import torch.nn as nn
import torch.nn.functional as F


def _step(accum, divide):
    torch.manual_seed(0)
    student = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10))
    teacher = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10))
    g = torch.Generator().manual_seed(1)
    x = torch.randn(256, 16, generator=g)
    micro = len(x) // accum
    logged = 0.0
    for i in range(accum):
        xb = x[i * micro : (i + 1) * micro]
        with torch.no_grad():
            t = F.softmax(teacher(xb), -1)
        loss = F.kl_div(F.log_softmax(student(xb), -1), t, reduction="batchmean")
        if divide:
            loss = loss / accum
        loss.backward()
        logged += loss.item()
    gnorm = torch.sqrt(sum((p.grad**2).sum() for p in student.parameters())).item()
    return logged, gnorm


def _check() -> str:
    l8, g8 = _step(8, False)
    l32, g32 = _step(32, False)
    f8, fg8 = _step(8, True)
    f32, fg32 = _step(32, True)
    assert 3.5 < l32 / l8 < 4.5 and 3.5 < g32 / g8 < 4.5, (l8, l32, g8, g32)
    assert abs(f32 / f8 - 1) < 0.05 and abs(fg32 / fg8 - 1) < 0.05, (f8, f32)
    return f"same 256 samples: logged loss {l8:.2f} with 8 accumulation steps, {l32:.2f} with 32; grad norm x{g32 / g8:.1f}"


def check() -> str:
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return _check()
    finally:
        torch.set_num_threads(n)


if __name__ == "__main__":
    print(check())
