import importlib.util
from pathlib import Path

import torch


def _load():
    spec = importlib.util.spec_from_file_location("ya_softmoe_target", Path(__file__).with_name("target.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _run() -> str:
    mod = _load()
    t = mod.make_target()
    model = t["model"].eval()
    images, _ = t["batch"]
    with torch.no_grad():
        full = model(images)
        alone = model(images[:1])
        swapped = model(torch.cat([images[:1], torch.randn(15, 3, 16, 16)]))
        # the first MoE layer's dispatch weights: how they normalise
        x = model.patch_embed(images).flatten(2).transpose(1, 2) + model.pos
        moe = model.blocks[0].moe
        logits = torch.einsum("bmd,dnp->bmnp", model.blocks[0].norm2(x), moe.phi)
        per_slot_over_tokens = logits.softmax(dim=0).sum(dim=1)   # should be 1 per (example, slot)
        per_slot_over_batch = logits.softmax(dim=0).sum(dim=0)
    d_swap = (full[0] - swapped[0]).abs().max().item()
    d_alone = (full[0] - alone[0]).abs().max().item()
    single = model.blocks[0].moe
    with torch.no_grad():
        lg1 = torch.einsum("bmd,dnp->bmnp", torch.randn(1, 16, 32), single.phi)
        ones = bool(torch.allclose(lg1.softmax(dim=0), torch.ones_like(lg1)))

    # healthy twin: dispatch normalised over the tokens of each example
    def fixed_forward(self, x):
        logits = torch.einsum("bmd,dnp->bmnp", x, self.phi)
        dispatch = logits.softmax(dim=1)
        combine = logits.flatten(2).softmax(dim=-1).view_as(logits)
        slots = torch.einsum("bmd,bmnp->bnpd", x, dispatch)
        h = torch.nn.functional.gelu(torch.einsum("bnpd,ndh->bnph", slots, self.w1))
        y = torch.einsum("bnph,nhd->bnpd", h, self.w2)
        return torch.einsum("bnpd,bmnp->bmd", y, combine)

    orig = mod.SoftMoE.forward
    mod.SoftMoE.forward = fixed_forward
    try:
        with torch.no_grad():
            f_full = model(images)
            f_swapped = model(torch.cat([images[:1], torch.randn(15, 3, 16, 16)]))
            f_alone = model(images[:1])
    finally:
        mod.SoftMoE.forward = orig
    f_d = max((f_full[0] - f_swapped[0]).abs().max().item(), (f_full[0] - f_alone[0]).abs().max().item())

    assert d_swap > 1e-3 and d_alone > 1e-3, (d_swap, d_alone)
    assert ones, "batch of one should give all-ones dispatch"
    assert torch.allclose(per_slot_over_batch, torch.ones_like(per_slot_over_batch), atol=1e-5)
    assert f_d < 1e-5, f_d
    return (f"eval-mode logits of image 0 move by {d_swap:.3f} when the other 15 images change and by {d_alone:.3f} "
            f"when it is run alone (batch of 1 -> every dispatch weight is exactly 1.0); dispatch weights sum to 1 over "
            f"the batch, over tokens they sum to {per_slot_over_tokens.min().item():.2f}..{per_slot_over_tokens.max().item():.2f}; "
            f"with the softmax over tokens the change is {f_d:.1e}")


def check() -> str:
    prev = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        torch.manual_seed(1)
        return _run()
    finally:
        torch.set_num_threads(prev)


if __name__ == "__main__":
    print(check())
