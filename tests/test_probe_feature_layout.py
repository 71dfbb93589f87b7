"""feature_layout: a reshape that reorders axes inside each example, against the transpose that was meant."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

import debug_agent.probes as P
from debug_agent.isolation import probe_registry
from debug_agent.schemas import ProbeResult, Target


def run(model: nn.Module, x: torch.Tensor, *extra: torch.Tensor) -> ProbeResult:
    probe_registry()
    batch = ((x, *extra) if extra else x, torch.zeros(x.shape[0], dtype=torch.long))
    target = Target(model=model, batch=batch, loss_fn=F.cross_entropy)
    return P.execute("feature_layout", target, P.ProbeContext(seed=0, budget_s=60), {})


class SeqConv(nn.Module):
    """(B, T, C) features into a Conv1d that wants (B, C, T); `bug` views instead of transposing."""

    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug = bug
        self.conv = nn.Conv1d(6, 8, 3, padding=1)
        self.head = nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        h = x.view(b, c, t) if self.bug else x.transpose(1, 2)  # BUG (when set): same shape, scrambled memory
        return self.head(self.conv(h).mean(-1))


class Patches(nn.Module):
    """A vision transformer's patch embedding: (B, 3, 16, 16) into 16 tokens of 3*4*4 values."""

    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug = bug
        self.proj = nn.Linear(48, 16)
        self.head = nn.Linear(16, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b = x.shape[0]
        p = x.unfold(2, 4, 4).unfold(3, 4, 4)  # (B, C, 4, 4, 4, 4): (B, C, nh, nw, ph, pw)
        if self.bug:
            tokens = p.reshape(b, 16, 48)  # BUG: channels land in the patch axis
        else:
            tokens = p.permute(0, 2, 3, 1, 4, 5).reshape(b, 16, 48)  # (B, nh*nw, C*ph*pw)
        return self.head(self.proj(tokens).mean(1))


def test_a_sequence_viewed_instead_of_transposed_is_scrambled() -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 10, 6)
    bad = run(SeqConv(True), x)
    assert bad.status == "failed" and bad.outcomes == ["features_scrambled"], bad.summary
    assert bad.measurements["layer"] == "conv"
    good = run(SeqConv(False), x)
    assert good.status == "passed" and good.outcomes == ["features_together"], good.summary


def test_the_finding_matches_where_plain_pytorch_puts_the_values() -> None:
    """The reported rows and positions are where x.view(B, C, T) takes conv position 0's values from."""
    torch.manual_seed(0)
    x = torch.randn(4, 10, 6)
    where = torch.arange(60).view(1, 10, 6)  # each cell of one example holds its flat index, laid out (T, C)
    picked = where.view(1, 6, 10)[0, :, 0].tolist()  # conv position 0 reads these cells, one per conv channel
    cells = {}
    for flat in picked:
        cells.setdefault(flat // 6, set()).add(flat % 6)  # time step (input row) -> channels (positions)
    bad = run(SeqConv(True), x)
    data = bad.findings[0].data
    assert data["token"] == 0
    (ra, rb), (pa, pb) = data["rows"], data["positions"]
    assert set(pa) == cells[ra] and set(pb) == cells[rb]
    assert bad.measurements["scrambled_tokens"] == bad.measurements["informative_tokens"] == 10


def test_patch_embedding_that_mixes_channels_into_patches_is_scrambled() -> None:
    torch.manual_seed(0)
    x = torch.randn(4, 3, 16, 16)
    bad = run(Patches(True), x)
    assert bad.status == "failed" and "proj" in bad.findings[0].text
    assert run(Patches(False), x).status == "passed"


def test_conv_and_recurrent_first_layers_pass() -> None:
    torch.manual_seed(0)
    cnn = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4, 2))
    assert run(cnn, torch.randn(4, 3, 8, 8)).status == "passed"

    class Rnn(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.rnn = nn.GRU(6, 8, batch_first=True)
            self.head = nn.Linear(8, 2)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.head(self.rnn(x)[0][:, -1])

    assert run(Rnn(), torch.randn(4, 10, 6)).status == "passed"


def test_flat_features_are_not_applicable() -> None:
    result = run(nn.Linear(5, 2), torch.randn(4, 5))
    assert result.status == "not_applicable"


def test_a_layer_that_does_not_read_the_input_is_skipped() -> None:
    """A timestep MLP runs first on another input: the probe waits for the layer that reads the image."""

    class Denoiser(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.time = nn.Sequential(nn.Linear(1, 4), nn.SiLU(), nn.Linear(4, 4))
            self.conv = nn.Conv2d(3, 4, 3, padding=1)
            self.head = nn.Linear(4, 2)

        def forward(self, x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
            emb = self.time(t[:, None])  # (B, 4)
            return self.head((self.conv(x) + emb[:, :, None, None]).mean((2, 3)))

    result = run(Denoiser(), torch.randn(4, 3, 8, 8), torch.rand(4))
    assert result.status == "passed" and result.measurements["layer"] == "conv", result.summary


# --- token ids: the embedding's output stands in for the input ---------------------------------------------


class TokenGrid(nn.Module):
    """Category ids (B, H, W) embedded to (B, H, W, D) and mixed by a 1x1 Conv2d that wants (B, D, H, W)."""

    def __init__(self, bug: bool, relu: bool = False) -> None:
        super().__init__()
        self.bug, self.relu = bug, relu
        self.embed = nn.Embedding(6, 8)
        self.conv = nn.Conv2d(8, 6, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, h, w = x.shape
        e = self.embed(x)  # (B, H, W, D)
        e = e.reshape(b, 8, h, w) if self.bug else e.permute(0, 3, 1, 2)  # BUG (when set): a reshape, not a permute
        return self.conv(e.relu() if self.relu else e).mean((2, 3))


class TokenEncoder(nn.Module):
    """A text encoder's start: embedding plus positions, LayerNorm, then a Linear per token."""

    def __init__(self) -> None:
        super().__init__()
        self.embed, self.pos = nn.Embedding(20, 8), nn.Embedding(6, 8)
        self.norm, self.proj = nn.LayerNorm(8), nn.Linear(8, 2)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:  # (B, T)
        h = self.norm(self.embed(ids) + self.pos(torch.arange(ids.shape[1])))  # (B, T, D)
        return self.proj(h).mean(1)


def test_token_ids_embedded_then_reshaped_instead_of_permuted_are_scrambled() -> None:
    ids = torch.randint(0, 6, (4, 8, 8), generator=torch.Generator().manual_seed(0))
    result = run(TokenGrid(bug=True), ids)
    assert result.status == "failed" and result.outcomes == ["features_scrambled"], result.summary
    assert "embedding positions" in result.findings[0].text
    for healthy in (TokenGrid(bug=False), TokenGrid(bug=False, relu=True)):
        assert run(healthy, ids).status == "passed"


def test_a_text_encoder_and_an_mlp_over_all_embeddings_pass() -> None:
    ids = torch.randint(0, 20, (4, 6), generator=torch.Generator().manual_seed(0))
    assert run(TokenEncoder(), ids).status == "passed"
    flat = nn.Sequential(nn.Embedding(20, 8), nn.Flatten(), nn.Linear(48, 2))  # (B, T*D) into one Linear
    assert run(flat, ids).status == "passed"
